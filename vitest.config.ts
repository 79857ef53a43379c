import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Integration tests spawn the built CLI and open real databases.
    testTimeout: 60_000,
    // The CLIs and servers tests spawn embed with the hash embedder (fast, deterministic, no
    // model); tests of the default model unset it (test/default-embedder.test.ts).
    env: { HINDSIGHT_EMBEDDER: "hash" },
    hookTimeout: 60_000,
  },
});
