/**
 * The lifecycle operations from a process that does not own the embedded data directory: the
 * CLI forwards them to the owner over the local socket, options and dates included.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, runCli } from "./support/cli.js";

const HOLDER = fileURLToPath(new URL("./support/holder.mjs", import.meta.url));

describe("lifecycle operations forwarded to the owner of an embedded directory", () => {
  let dataDir: string;
  let owner: ChildProcessWithoutNullStreams;
  let send: (op: string, ...args: unknown[]) => Promise<{ ok: boolean; result?: unknown }>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "hindsight-lifecycle-shared-"));
    owner = spawn(process.execPath, [HOLDER, dataDir], { stdio: ["pipe", "pipe", "pipe"] });
    owner.stderr.resume();
    const lines = createInterface({ input: owner.stdout });
    const queue: ((line: string) => void)[] = [];
    lines.on("line", (line) => queue.shift()?.(line));
    const next = () => new Promise<string>((resolve) => queue.push(resolve));
    expect(JSON.parse(await next())).toMatchObject({ role: "owner" });
    send = async (op, ...args) => {
      const answer = next();
      owner.stdin.write(`${JSON.stringify({ op, args })}\n`);
      return JSON.parse(await answer);
    };
  });
  afterAll(async () => {
    if (owner.exitCode === null) {
      const exited = new Promise((resolve) => owner.once("exit", resolve));
      owner.stdin.write(`${JSON.stringify({ op: "exit" })}\n`);
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it("maintains, stores facts that supersede, and shows history through the owner", async () => {
    // At debug, a one-shot command says that it forwarded.
    const env = {
      HINDSIGHT_DATA_DIR: dataDir,
      DATABASE_URL: undefined,
      HINDSIGHT_LOG_LEVEL: "debug",
    };
    const first = json<{ id: string }>(
      await runCli(["store-fact", "--key", "On call", "--value", "Ana", "--json"], env),
    );
    const second = await runCli(["store-fact", "--key", "On call", "--value", "Bo", "--json"], env);
    expect(second.stderr).toMatch(/forwarding to it/);
    expect(json(second)).toEqual({ id: expect.any(String), superseded: [first.id] });

    const maintained = json<{ at: string; semantic: { scored: number } }>(
      await runCli(["maintain", "--now", "2030-01-01T00:00:00Z", "--json"], env),
    );
    expect(maintained).toMatchObject({ at: "2030-01-01T00:00:00.000Z", semantic: { scored: 2 } });
    // The scheduler's option crosses the socket too.
    const skipped = await send("maintain", {}, { ifIdle: true });
    expect(skipped).toMatchObject({ ok: true, result: { semantic: { scored: 2 } } });

    const history = json<{ events: { event: string; at: string }[]; superseded_by: string }>(
      await runCli(["history", first.id, "--json"], env),
    );
    expect(history.events.map((e) => e.event)).toEqual(["created", "superseded", "archived"]);
    expect(history.superseded_by).toBe(json<{ id: string }>(second).id);
  }, 60_000);
});
