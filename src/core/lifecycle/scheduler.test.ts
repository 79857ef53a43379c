import { describe, expect, it } from "vitest";
import type { Logger } from "../ports.js";
import { startScheduler } from "./scheduler.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function logger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return {
    errors,
    debug: () => {},
    info: () => {},
    warn: () => {},
    error: (message, fields) => errors.push(`${message} ${JSON.stringify(fields)}`),
  };
}

describe("scheduler", () => {
  it("runs each job every interval, and not at all when its interval is 0", async () => {
    let runs = 0;
    let never = 0;
    const scheduler = startScheduler(
      [
        { name: "often", intervalMs: 10, run: async () => void runs++ },
        { name: "off", intervalMs: 0, run: async () => void never++ },
      ],
      logger(),
    );
    expect(scheduler.jobs).toEqual(["often"]);
    await sleep(120);
    await scheduler.stop();
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(never).toBe(0);
  });

  it("logs a failed run and tries again at the next tick", async () => {
    const log = logger();
    let calls = 0;
    const scheduler = startScheduler(
      [
        {
          name: "maintain",
          intervalMs: 10,
          run: async () => {
            calls++;
            if (calls === 1) throw new Error("database restarting");
          },
        },
      ],
      log,
    );
    await sleep(100);
    await scheduler.stop();
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(log.errors[0]).toMatch(/scheduled maintain failed; retrying at the next tick/);
    expect(log.errors[0]).toMatch(/database restarting/);
  });

  it("never overlaps a job with itself, and stop() waits for the run in flight", async () => {
    let concurrent = 0;
    let most = 0;
    let finished = 0;
    const scheduler = startScheduler(
      [
        {
          name: "slow",
          intervalMs: 5,
          run: async () => {
            concurrent++;
            most = Math.max(most, concurrent);
            await sleep(40);
            concurrent--;
            finished++;
          },
        },
      ],
      logger(),
    );
    await sleep(60);
    await scheduler.stop();
    expect(most).toBe(1);
    expect(concurrent).toBe(0);
    const after = finished;
    await sleep(30);
    expect(finished).toBe(after);
  });
});
