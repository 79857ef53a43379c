import { describe, expect, it } from "vitest";
import { warmFor } from "./context.js";

describe("when a command loads the embedding model", () => {
  it("loads it at start for a server, so a broken model fails there", () => {
    expect(warmFor("now", undefined)).toBe(true);
  });

  it("starts loading it while the store opens when the first call embeds", () => {
    for (const operation of ["storeEpisodic", "storeEpisodicBatch", "storeSemantic", "recall"]) {
      expect(warmFor("first-call", operation)).toBe("background");
    }
  });

  it("never loads it for a call that embeds nothing", () => {
    for (const operation of ["stats", "get", "list", "forget", "history", undefined]) {
      expect(warmFor("first-call", operation)).toBe(false);
    }
    expect(warmFor("first-call", "no-such-operation")).toBe(false);
  });
});
