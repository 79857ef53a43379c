/**
 * The evaluation runtime shares one embedder between banks; the wrapper must keep what
 * ranking reads from it (its scripts, its similarity scale, the query/document purpose), or
 * evaluations would measure something other than what recall does.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../src/adapters/logger.js";
import { openEvalRuntime } from "../src/eval/banks.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MODELS = path.join(ROOT, ".cache", "models");
const MINILM = path.join(MODELS, "all-minilm-l6-v2-int8");
const E5 = path.join(MODELS, "multilingual-e5-small-q4");

describe("evaluation runtime", () => {
  it("keeps an embedder that covers every script as such", async () => {
    const runtime = await openEvalRuntime(
      { dataDir: "memory://", embedder: { kind: "hash" } },
      silentLogger,
    );
    try {
      expect(runtime.embedder.id).toBe("hash-v1");
      expect(runtime.embedder.scripts).toBeUndefined();
    } finally {
      await runtime.close();
    }
  });

  it.skipIf(!existsSync(MINILM))("passes the local model's scripts through", async () => {
    const runtime = await openEvalRuntime(
      { dataDir: "memory://", embedder: { kind: "local", modelDir: MINILM } },
      silentLogger,
    );
    try {
      expect(runtime.embedder.scripts).toEqual(["Latin"]);
    } finally {
      await runtime.close();
    }
  });

  it.skipIf(!existsSync(E5))(
    "passes the default model's similarity scale and the query purpose through",
    async () => {
      const runtime = await openEvalRuntime(
        { dataDir: "memory://", embedder: { kind: "local", modelDir: E5 } },
        silentLogger,
      );
      try {
        expect(runtime.embedder.similarity).toEqual({
          unrelated: expect.any(Number),
          related: expect.any(Number),
        });
        const [query] = await runtime.embedder.embed(["billing"], "query");
        const [document] = await runtime.embedder.embed(["billing"], "document");
        expect(Array.from(query!)).not.toEqual(Array.from(document!));
      } finally {
        await runtime.close();
      }
    },
  );
});
