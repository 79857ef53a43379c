/**
 * HINDSIGHT_KEEP_WARM: a one-shot command on a free embedded directory leaves `hindsight warm`
 * behind, the next commands forward to it instead of opening the store and the model again,
 * and it gives the directory back once stopped or idle.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isHindsightError } from "../src/index.js";
import { processAlive } from "../src/multiprocess/process-alive.js";
import type { StartedOwner } from "../src/multiprocess/shared-directory.js";
import { openHindsight } from "../src/open/hindsight.js";
import { json, runCli } from "./support/cli.js";
import { until } from "./support/until.js";

describe("keeping an embedded directory warm between one-shot commands", () => {
  let root: string;
  let dataDir: string;
  const owners: number[] = [];

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "hindsight-warm-"));
    dataDir = join(root, "data");
  });
  afterEach(async () => {
    for (const pid of owners.splice(0)) if (processAlive(pid)) process.kill(pid, "SIGKILL");
    await rm(root, { recursive: true, force: true });
  });

  it("starts an owner the next command forwards to, which gives the directory back when stopped", async () => {
    // At debug, a one-shot command says which process it started or forwarded to.
    const env = {
      HINDSIGHT_DATA_DIR: dataDir,
      HINDSIGHT_KEEP_WARM: "600",
      HINDSIGHT_LOG_LEVEL: "debug",
    };
    const stored = await runCli(
      [
        "store",
        "--task-type",
        "deploy",
        "--summary",
        "the friday deploy failed",
        "--outcome",
        "failure",
        "--json",
      ],
      env,
    );
    const pid = Number(/started process (\d+)/.exec(stored.stderr)?.[1]);
    owners.push(pid);
    expect(processAlive(pid)).toBe(true);
    const { id } = json<{ id: string }>(stored);

    // Forwarded: not opened again, and the memory the first command stored is there.
    const recalled = await runCli(["recall", "friday deploy", "--json"], env);
    expect(recalled.stderr).toContain(`open in process ${pid}; forwarding to it`);
    expect(recalled.stderr).not.toContain("started process");
    expect(json<{ results: { id: string }[] }>(recalled).results.map((r) => r.id)).toContain(id);

    process.kill(pid, "SIGTERM");
    await until("the owner to exit", () => !processAlive(pid));
    expect(await readFile(join(dataDir, "warm.log"), "utf8")).toContain("(SIGTERM)");
    // Free again: a command without HINDSIGHT_KEEP_WARM opens the directory itself.
    const stats = await runCli(["stats", "--json"], { HINDSIGHT_DATA_DIR: dataDir });
    expect(stats.stderr).not.toContain("forwarding");
    expect(json<{ episodic: { total: number } }>(stats).episodic.total).toBe(1);
  });

  it("exits on its own once no call has come for --idle-exit seconds", async () => {
    const result = await runCli(["warm", "--idle-exit", "1"], { HINDSIGHT_DATA_DIR: dataDir });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/until 1 s pass without a call[\s\S]*\(idle\)/);
  });

  it("refuses a bad idle time, naming it, before anything is opened or written", async () => {
    const store = await runCli(
      ["store", "--task-type", "t", "--summary", "s", "--outcome", "success", "--json"],
      {
        HINDSIGHT_DATA_DIR: dataDir,
        HINDSIGHT_KEEP_WARM: "soon",
      },
    );
    expect(store.code).toBe(2);
    expect(JSON.parse(store.stderr).error).toMatchObject({ field: "HINDSIGHT_KEEP_WARM" });
    const warm = await runCli(["warm", "--idle-exit", "-1"], { HINDSIGHT_DATA_DIR: dataDir });
    expect(warm.code).toBe(2);
    expect(warm.stderr).toContain("--idle-exit");
    expect(existsSync(dataDir)).toBe(false);
  });

  it("refuses to keep a store warm that has nothing to keep open", async () => {
    const result = await runCli(["--data-dir", "memory://", "warm", "--idle-exit", "1"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /data_dir: warm keeps an embedded data directory open.*\[INVALID_INPUT\]/,
    );
    // Refused before opening anything: no store, no model.
    expect(result.stderr).not.toContain("applied migrations");
  });

  const ownerFailures: [string, () => StartedOwner][] = [
    ["the owner it started exits before serving", () => ({ pid: 99999, running: () => false })],
    [
      "no owner can be started",
      () => {
        throw new Error("EAGAIN: no more processes");
      },
    ],
  ];
  it.each(ownerFailures)("owns the directory itself when %s", async (_, startOwner) => {
    const memory = await openHindsight({ dataDir, embedder: { kind: "hash" } }, { startOwner });
    try {
      expect(await memory.role?.()).toBe("owner");
    } finally {
      await memory.close();
    }
  });

  it("fails with DATA_DIR_IN_USE when the owner it started never serves", async () => {
    const error = await openHindsight(
      { dataDir, embedder: { kind: "hash" }, lockTimeoutMs: 200 },
      { startOwner: () => ({ pid: 1234, running: () => true }) },
    ).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(isHindsightError(error) && error.code).toBe("DATA_DIR_IN_USE");
  });
});
