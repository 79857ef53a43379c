/**
 * The evaluation runtime shares one embedder between banks; the wrapper must keep what
 * ranking reads from it (its scripts), or MemDaily would be measured with MiniLM's noise.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../src/adapters.js";
import { openEvalRuntime } from "../src/eval/banks.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MODEL_DIR = path.join(ROOT, ".cache", "models", "all-minilm-l6-v2-int8");
const modelDir =
  process.env.HINDSIGHT_TEST_MODEL_DIR || (existsSync(MODEL_DIR) ? MODEL_DIR : undefined);

describe("evaluation runtime", () => {
  it("keeps an embedder that covers every script as such", async () => {
    const runtime = await openEvalRuntime({ dataDir: "memory://" }, silentLogger);
    try {
      expect(runtime.embedder.id).toBe("hash-v1");
      expect(runtime.embedder.scripts).toBeUndefined();
    } finally {
      await runtime.close();
    }
  });

  it.skipIf(modelDir === undefined)("passes the local model's scripts through", async () => {
    const runtime = await openEvalRuntime(
      { dataDir: "memory://", embedder: { kind: "local", modelDir: modelDir! } },
      silentLogger,
    );
    try {
      expect(runtime.embedder.scripts).toEqual(["Latin"]);
    } finally {
      await runtime.close();
    }
  });
});
