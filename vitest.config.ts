import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Integration tests spawn the built CLI and open real databases.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
