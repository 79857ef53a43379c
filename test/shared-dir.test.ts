/**
 * Several processes on one embedded data directory, as when every MCP client window starts its
 * own `hindsight mcp`: the first owns the database, the others forward to it, and when the
 * owner exits — even killed — the others take over without losing an acknowledged write.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface, type Interface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { json, runCli } from "./support/cli.js";

const HOLDER = fileURLToPath(new URL("./support/holder.mjs", import.meta.url));

// biome-ignore lint/suspicious/noExplicitAny: the answer of whichever operation was sent
type Answer = { ok: boolean; result?: any; error?: { code: string } };

interface Holder {
  child: ChildProcessWithoutNullStreams;
  pid: number;
  role: string;
  send(op: string, ...args: unknown[]): Promise<Answer>;
  exit(): Promise<void>;
}

async function startHolder(dataDir: string): Promise<Holder> {
  const child = spawn(process.execPath, [HOLDER, dataDir], { stdio: ["pipe", "pipe", "pipe"] });
  child.stderr.resume();
  const lines: Interface = createInterface({ input: child.stdout });
  const queue: Array<(line: string) => void> = [];
  lines.on("line", (line) => queue.shift()?.(line));
  const next = () => new Promise<string>((resolve) => queue.push(resolve));
  const ready = JSON.parse(await next()) as { pid: number; role: string };
  return {
    child,
    pid: ready.pid,
    role: ready.role,
    send: async (op, ...args) => {
      const answer = next();
      child.stdin.write(`${JSON.stringify({ op, args })}\n`);
      return JSON.parse(await answer);
    },
    exit: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.stdin.write(`${JSON.stringify({ op: "exit" })}\n`);
      await exited;
    },
  };
}

const episode = (summary: string) => ({ task_type: "shared", summary, outcome: "success" });

describe("one embedded data directory shared by several processes", () => {
  let dataDir: string;
  const holders: Holder[] = [];

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "hindsight-shared-"));
  });
  afterEach(async () => {
    for (const holder of holders.splice(0)) holder.child.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  });

  it("forwards CLI commands to the owning process instead of failing", async () => {
    const owner = await startHolder(dataDir);
    holders.push(owner);
    expect(owner.role).toBe("owner");
    // At debug, a one-shot command says that it forwarded.
    const env = { HINDSIGHT_DATA_DIR: dataDir, HINDSIGHT_LOG_LEVEL: "debug" };
    const stored = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        runCli(
          [
            "store",
            "--task-type",
            "shared",
            "--summary",
            `cli writer ${i}`,
            "--outcome",
            "success",
            "--json",
          ],
          env,
        ),
      ),
    );
    for (const result of stored) {
      expect(result.stderr).toContain(`forwarding to it`);
    }
    const ids = stored.map((result) => json<{ id: string }>(result).id);
    const stats = await owner.send("stats");
    expect(stats.result.episodic.total).toBe(6);
    const recalled = await owner.send("recall", {
      query_text: "cli writer",
      top_k: 10,
      min_score: 0,
    });
    expect(new Set(recalled.result.results.map((r: { id: string }) => r.id))).toEqual(new Set(ids));
  });

  it("hands the directory over when the owner exits", async () => {
    const first = await startHolder(dataDir);
    const second = await startHolder(dataDir);
    holders.push(first, second);
    expect([first.role, second.role]).toEqual(["owner", "client"]);
    expect((await second.send("storeEpisodic", episode("before the handover"))).ok).toBe(true);
    await first.exit();
    expect((await second.send("storeEpisodic", episode("after the handover"))).ok).toBe(true);
    expect((await second.send("role")).result).toBe("owner");
    expect((await second.send("stats")).result.episodic.total).toBe(2);
  });

  it("loses no acknowledged write when the owner is killed mid-load", async () => {
    const owner = await startHolder(dataDir);
    const writer = await startHolder(dataDir);
    holders.push(owner, writer);
    let acknowledged = 0;
    let failed = 0;
    for (let i = 0; i < 60; i++) {
      if (i === 20) owner.child.kill("SIGKILL");
      const answer = await writer.send("storeEpisodic", episode(`write ${i}`));
      if (answer.ok) acknowledged++;
      else failed++;
    }
    expect(failed).toBe(0);
    expect((await writer.send("role")).result).toBe("owner");
    const stats = await writer.send("stats");
    expect(stats.result.episodic.total).toBe(acknowledged);
  });
});
