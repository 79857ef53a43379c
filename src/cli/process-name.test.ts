import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { restoreProcessName } from "./process-name.js";

const linux = process.platform === "linux";

describe("the process's name", () => {
  it.runIf(linux)("is node again in a process whose main thread Node named MainThread", () => {
    // The built module, in a process of its own: renaming the test runner would outlive the test.
    const built = fileURLToPath(new URL("../../dist/cli/process-name.js", import.meta.url));
    const name = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { readFileSync, writeFileSync } from "node:fs";
         writeFileSync("/proc/self/comm", "MainThread");
         const { restoreProcessName } = await import(${JSON.stringify(built)});
         restoreProcessName();
         process.stdout.write(readFileSync("/proc/self/comm", "utf8").trim() + " " +
           readFileSync("/proc/self/cmdline", "utf8").split("\\0")[1]);`,
      ],
      { encoding: "utf8" },
    );
    // Renamed, and the command line left as it was started.
    expect(name).toBe("node --input-type=module");
  });

  it.runIf(linux)("leaves any other name alone", () => {
    const file = join(mkdtempSync(join(tmpdir(), "hindsight-comm-")), "comm");
    writeFileSync(file, "hindsight-serve\n");
    restoreProcessName(file);
    expect(readFileSync(file, "utf8")).toBe("hindsight-serve\n");
    writeFileSync(file, "MainThread\n");
    restoreProcessName(file);
    expect(readFileSync(file, "utf8")).toBe("node");
  });

  it("never throws where the name cannot be read", () => {
    expect(() => restoreProcessName("/nonexistent/comm")).not.toThrow();
  });
});
