import {
  closeSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { idleSeconds, openWarmLog } from "./keep-warm.js";

describe("idleSeconds", () => {
  it("reads whole seconds, and absent, empty or 0 as off", () => {
    expect(idleSeconds(undefined, "HINDSIGHT_KEEP_WARM")).toBe(0);
    expect(idleSeconds(" ", "HINDSIGHT_KEEP_WARM")).toBe(0);
    expect(idleSeconds("0", "HINDSIGHT_KEEP_WARM")).toBe(0);
    expect(idleSeconds("300", "HINDSIGHT_KEEP_WARM")).toBe(300);
  });

  it("refuses fractions, negatives and more than a week, naming the field", () => {
    for (const value of ["1.5", "-3", "soon", String(7 * 24 * 3600 + 1)]) {
      expect(() => idleSeconds(value, "--idle-exit")).toThrow(/--idle-exit/);
    }
  });
});

describe("openWarmLog", () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "warm-log-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const append = (dir: string, text: string, maxBytes: number) => {
    const fd = openWarmLog(dir, maxBytes);
    writeSync(fd, text);
    closeSync(fd);
  };

  it("appends to the log, readable by its owner only", () => {
    const dir = dataDir();
    append(dir, "first\n", 100);
    append(dir, "second\n", 100);
    expect(readFileSync(join(dir, "warm.log"), "utf8")).toBe("first\nsecond\n");
    expect(statSync(join(dir, "warm.log")).mode & 0o777).toBe(0o600);
  });

  it("starts a new log once the old one is past its limit, keeping one before it", () => {
    const dir = dataDir();
    writeFileSync(join(dir, "warm.log.1"), "oldest\n");
    writeFileSync(join(dir, "warm.log"), "x".repeat(101));
    append(dir, "new owner\n", 100);
    expect(readFileSync(join(dir, "warm.log"), "utf8")).toBe("new owner\n");
    expect(readFileSync(join(dir, "warm.log.1"), "utf8")).toBe("x".repeat(101));
  });
});
