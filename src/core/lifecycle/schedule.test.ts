import { describe, expect, it } from "vitest";
import type { Logger } from "../ports.js";
import { type LifecycleJobs, startLifecycleSchedule } from "./schedule.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("lifecycle schedule", () => {
  it("maintains every store, and one failing store does not stop the others", async () => {
    const errors: string[] = [];
    const logger: Logger = {
      debug: () => {},
      info: () => {},
      warn: () => {},
      error: (message, fields) => errors.push(`${message} ${JSON.stringify(fields)}`),
    };
    let maintained = 0;
    const broken = {
      maintain: async () => {
        throw new Error("tenant acme: database unreachable");
      },
    } as unknown as LifecycleJobs;
    const healthy = {
      maintain: async () => {
        maintained++;
        return {};
      },
    } as unknown as LifecycleJobs;
    const schedule = startLifecycleSchedule(
      () => [Promise.resolve(broken), healthy],
      { maintainIntervalSeconds: 0.01, consolidateIntervalSeconds: 0 },
      logger,
    );
    expect(schedule.jobs).toEqual(["maintain"]);
    await sleep(60);
    await schedule.stop();
    expect(maintained).toBeGreaterThanOrEqual(2);
    expect(errors[0]).toMatch(
      /scheduled maintain failed.*1 of 2 stores failed; first: tenant acme/,
    );
  });
});
