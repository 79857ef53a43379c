/** Token counting with OpenAI's cl100k_base encoding, the common yardstick for budgets. */
import { countTokens, decode, encode } from "gpt-tokenizer/encoding/cl100k_base";
import type { TokenCounter } from "../core/summarize/summarize-memories.js";

export const cl100k: TokenCounter = {
  count: (text) => countTokens(text),
  // A cut inside a multi-byte character decodes to U+FFFD; drop it.
  truncate: (text, tokens) =>
    decode(encode(text).slice(0, Math.max(0, tokens))).replace(/\uFFFD+$/u, ""),
};
