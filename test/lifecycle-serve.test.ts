/**
 * The lifecycle schedule inside `hindsight serve` as shipped: intervals from the environment,
 * jobs that run, a bad interval refused, and a clean stop on SIGTERM.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI, runCli } from "./support/cli.js";

const ENV = { HINDSIGHT_DATA_DIR: "memory://", DATABASE_URL: undefined };

describe("hindsight serve schedule", () => {
  it("runs maintenance at the configured interval and stops cleanly", async () => {
    const child = spawn(process.execPath, [CLI, "serve", "--port", "0"], {
      env: {
        ...process.env,
        ...ENV,
        HINDSIGHT_LOG_LEVEL: "info",
        HINDSIGHT_MAINTAIN_INTERVAL: "1",
        HINDSIGHT_CONSOLIDATE_INTERVAL: "0",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString("utf8");
          if (/maintenance done/.test(stderr)) resolve();
        });
        void exited.then((code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
      });
      expect(stderr).toMatch(/scheduled: maintain\b/);
      expect(stderr).not.toMatch(/consolidat/);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }, 30_000);

  it("refuses an interval that is not a number of seconds", async () => {
    const result = await runCli(["serve", "--port", "0"], {
      ...ENV,
      HINDSIGHT_MAINTAIN_INTERVAL: "hourly",
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/HINDSIGHT_MAINTAIN_INTERVAL: 'hourly' is not a number/);
  });
});
