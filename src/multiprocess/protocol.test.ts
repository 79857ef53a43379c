import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeMessage, lineReader, parseMessage } from "./protocol.js";

/** Feeds `bytes` to a line reader in chunks cut at `cuts` (byte offsets). */
function readLines(bytes: Buffer, cuts: readonly number[]): string[] {
  const lines: string[] = [];
  const read = lineReader((line) => lines.push(line));
  let start = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    read(bytes.subarray(start, cut));
    start = cut;
  }
  read(bytes.subarray(start));
  return lines;
}

describe("lineReader", () => {
  it("keeps a character whose bytes arrive in two chunks", () => {
    const text = "部署失败：端口被占用 🚀 ok";
    const bytes = Buffer.from(encodeMessage({ id: 1, ok: true, result: text }), "utf8");
    // Every cut inside the message, including in the middle of each multi-byte character.
    for (let cut = 1; cut < bytes.length; cut++) {
      const [line] = readLines(bytes, [cut]);
      expect((parseMessage(line!) as { result: string }).result).toBe(text);
    }
  });

  it("gives back every message unchanged however the stream is cut", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "grapheme", maxLength: 40 }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (texts, rawCuts) => {
          const bytes = Buffer.from(
            texts.map((text, id) => encodeMessage({ id, ok: true, result: text })).join(""),
            "utf8",
          );
          const cuts = rawCuts.map((cut) => cut % (bytes.length + 1));
          const results = readLines(bytes, cuts).map(
            (line) => (parseMessage(line) as { result: string }).result,
          );
          expect(results).toEqual(texts);
        },
      ),
    );
  });
});
