import { describe, expect, it } from "vitest";
import { configureAgain, mismatchAdvice } from "./reembed-hint.js";

describe("configureAgain", () => {
  it("names the setting of each built-in embedder", () => {
    expect(configureAgain("hash-v1")).toBe("set HINDSIGHT_EMBEDDER=hash");
    expect(configureAgain("local:multilingual-e5-small-q4")).toBe(
      "unset HINDSIGHT_EMBEDDER (the default model)",
    );
    expect(configureAgain("openai:text-embedding-3-small")).toBe(
      "set HINDSIGHT_EMBEDDER=openai EMBEDDING_MODEL=text-embedding-3-small",
    );
    expect(configureAgain("local:all-MiniLM-L6-v2")).toBe(
      "set HINDSIGHT_EMBEDDER=local with model 'all-MiniLM-L6-v2'",
    );
  });

  it("names the embedder when only a program can configure it", () => {
    expect(configureAgain("hash-v1-64")).toBe("configure embedder 'hash-v1-64' again");
    expect(configureAgain("custom")).toBe("configure embedder 'custom' again");
  });
});

describe("mismatchAdvice", () => {
  const hash = { id: "hash-v1", dimensions: 384 };
  const e5 = { id: "local:multilingual-e5-small-q4", dimensions: 384 };

  it("offers re-embedding and the way back", () => {
    expect(mismatchAdvice({ built: hash }, e5)).toBe(
      "re-embed it with `hindsight reembed` (keeps every memory), or set HINDSIGHT_EMBEDDER=hash to keep using it",
    );
  });

  it("says when a re-embedding for the configured embedder is unfinished", () => {
    expect(mismatchAdvice({ built: hash, reembedding: e5 }, e5)).toBe(
      "re-embedding it for 'local:multilingual-e5-small-q4' was started and not finished: run `hindsight reembed` again to finish it (keeps every memory), or set HINDSIGHT_EMBEDDER=hash to keep using it",
    );
    // One toward another embedder is not this one's to finish.
    expect(mismatchAdvice({ built: hash, reembedding: { id: "x", dimensions: 3 } }, e5)).toMatch(
      /^re-embed it with/,
    );
  });

  it("names an embedder it cannot spell as a setting", () => {
    expect(mismatchAdvice({ built: { id: "custom", dimensions: 8 } }, e5)).toContain(
      "or configure embedder 'custom' again to keep using it",
    );
  });
});
