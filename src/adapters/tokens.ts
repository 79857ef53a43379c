/** Token counting with OpenAI's cl100k_base encoding, the common yardstick for budgets. */
import { createRequire } from "node:module";
import type { TokenCounter } from "../core/summarize/summarize-memories.js";

type Encoding = typeof import("gpt-tokenizer/encoding/cl100k_base");

// Loaded on the first count: the encoding's tables take ~90 ms to load, which a command that
// counts nothing (stats, get, list, recall) should not pay. The interface is synchronous, so
// the package is required, not imported.
const require = createRequire(import.meta.url);
let encoding: Encoding | undefined;
const cl100kBase = (): Encoding =>
  (encoding ??= require("gpt-tokenizer/encoding/cl100k_base") as Encoding);

export const cl100k: TokenCounter = {
  count: (text) => cl100kBase().countTokens(text),
  // A cut inside a multi-byte character decodes to U+FFFD; drop it.
  truncate: (text, tokens) => {
    const { decode, encode } = cl100kBase();
    return decode(encode(text).slice(0, Math.max(0, tokens))).replace(/\uFFFD+$/u, "");
  },
};
