import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

// Write permission is the operating system's to decide, and a test running as root has it
// everywhere: the refusal itself is checked with `access` answering as it does for a user
// without it (EACCES) and on a read-only mount (EROFS).
const denied = vi.hoisted(() => new Map<string, string>());
vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  return {
    ...actual,
    access: async (path: string, mode?: number) => {
      const code = denied.get(path);
      if (code) throw Object.assign(new Error(`${code}: ${path}`), { code });
      return actual.access(path, mode);
    },
  };
});

const { ensurePrivateDirectory } = await import("./private-dir.js");

describe("ensurePrivateDirectory", () => {
  let base: string | undefined;
  afterEach(async () => {
    denied.clear();
    if (base) await rm(base, { recursive: true, force: true });
  });

  it.each([
    ["EACCES", "is not writable (EACCES)"],
    ["EROFS", "is not writable (read-only file system)"],
  ])("refuses a directory the user cannot write in (%s), naming the setting", async (code, why) => {
    base = await mkdtemp(join(tmpdir(), "hindsight-access-"));
    const dir = join(base, "data");
    denied.set(dir, code);
    await expect(
      ensurePrivateDirectory(dir, { field: "HINDSIGHT_DATA_DIR" }),
    ).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      field: "HINDSIGHT_DATA_DIR",
      message: expect.stringContaining(why),
    });
  });
});
