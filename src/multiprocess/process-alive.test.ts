import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { processAlive } from "./process-alive.js";

describe("processAlive", () => {
  it("tells a running process from one that has exited", async () => {
    expect(processAlive(process.pid)).toBe(true);
    const child = spawn(process.execPath, ["-e", "0"], { stdio: "ignore" });
    await once(child, "exit");
    expect(processAlive(child.pid!)).toBe(false);
  });
});
