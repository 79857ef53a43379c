/**
 * The command line's cost per call, as an agent hook pays it: a new process each time, against
 * a bare `node -e 0` start measured in the same run, alternating so that both see the same
 * machine. Four cases on one embedded directory:
 *   - refused: `store` with a bad outcome (nothing may be opened);
 *   - no model: `stats` (opens the store, never the embedding model);
 *   - cold: `store` and `recall` when no process holds the directory (this process opens the
 *     store and the model);
 *   - forwarded: the same while `hindsight serve` holds it (the call goes over its socket);
 *   - kept warm: the same with HINDSIGHT_KEEP_WARM, once the first call has started
 *     `hindsight warm` (that first call is reported on its own).
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { askOwner, lockAddress } from "../adapters/storage/dir-lock.js";
import { processAlive } from "../multiprocess/process-alive.js";
import { type Percentiles, percentiles } from "./stats.js";

export interface CliCase {
  ms: Percentiles;
  /** p50 ÷ the bare node start's p50. */
  over_node: number;
}

export interface CliBench {
  node_ms: Percentiles;
  refused: CliCase;
  stats_no_model: CliCase;
  cold_store: CliCase;
  cold_recall: CliCase;
  forwarded_store: CliCase;
  forwarded_recall: CliCase;
  /** The call that starts `hindsight warm`, then the calls forwarded to it. */
  warm_first_store_ms: number;
  warm_store: CliCase;
  warm_recall: CliCase;
  embedder: string;
}

/** Wall time of one process, start to exit, in milliseconds; its exit code must be `expect`. */
async function run(args: readonly string[], env: NodeJS.ProcessEnv, expect = 0): Promise<number> {
  return (await runLogged(args, env, expect)).ms;
}

function runLogged(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  expect = 0,
): Promise<{ ms: number; stderr: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code === expect) resolve({ ms: performance.now() - started, stderr });
      else reject(new Error(`${args.join(" ")} exited ${code}, expected ${expect}: ${stderr}`));
    });
  });
}

/** SIGTERM, then waits until the process is gone (it closes the store first). */
async function stopProcess(pid: number): Promise<void> {
  if (processAlive(pid)) process.kill(pid, "SIGTERM");
  while (processAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
}

export async function benchCli(options: {
  cli: string;
  /** HINDSIGHT_EMBEDDER's value: "" for the default model. */
  embedder: string;
  rounds: number;
  startServe: (env: Record<string, string>) => Promise<{ kill(): Promise<void> }>;
  progress: (message: string) => void;
}): Promise<CliBench> {
  const { cli, rounds } = options;
  const dir = await mkdtemp(join(tmpdir(), "hindsight-bench-cli-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HINDSIGHT_DATA_DIR: join(dir, "data"),
    HINDSIGHT_LOG_LEVEL: "warn",
    ...(options.embedder ? { HINDSIGHT_EMBEDDER: options.embedder } : {}),
  };
  delete env.DATABASE_URL;
  const hs = (...args: string[]) => [cli, ...args];
  const store = (round: number) =>
    hs(
      "store",
      "--task-type",
      "deploy",
      "--summary",
      `Deploy ${round} of billing failed: port 8080 already in use`,
      "--outcome",
      "failure",
    );
  // A new question each round: a process that stays up keeps recent queries' vectors
  // (core/query-vectors), and the bench measures a recall that embeds its query.
  const recall = (round: number) => hs("recall", `why did billing deploy ${round} fail`);
  const samples = new Map<string, number[]>();
  let warmFirst = Number.NaN;
  const add = (name: string, ms: number) => samples.set(name, [...(samples.get(name) ?? []), ms]);
  try {
    // The first call creates the directory and applies the migrations: not what later calls pay.
    await run(store(-1), env);
    options.progress(`cli: ${rounds} rounds without an owner`);
    for (let round = 0; round < rounds; round++) {
      add("node", await run(["-e", "0"], env));
      add("refused", await run(hs("store", "--task-type", "x", "--outcome", "bogus"), env, 2));
      add("stats_no_model", await run(hs("stats"), env));
      add("cold_store", await run(store(round), env));
      add("cold_recall", await run(recall(round), env));
    }
    options.progress(`cli: ${rounds} rounds forwarded to hindsight serve`);
    const server = await options.startServe({
      HINDSIGHT_DATA_DIR: env.HINDSIGHT_DATA_DIR!,
      ...(options.embedder ? { HINDSIGHT_EMBEDDER: options.embedder } : {}),
    });
    try {
      for (let round = 0; round < rounds; round++) {
        add("node", await run(["-e", "0"], env));
        add("forwarded_store", await run(store(rounds + round), env));
        add("forwarded_recall", await run(recall(rounds + round), env));
      }
    } finally {
      await server.kill();
    }
    options.progress(`cli: ${rounds} rounds kept warm (HINDSIGHT_KEEP_WARM)`);
    const warmEnv = { ...env, HINDSIGHT_KEEP_WARM: "600" };
    const first = await runLogged(store(2 * rounds), warmEnv);
    warmFirst = first.ms;
    // The process it started holds the directory now: the directory's lock says which.
    const owner = (await askOwner(await lockAddress(env.HINDSIGHT_DATA_DIR!)))?.pid ?? 0;
    if (!(owner > 0)) throw new Error(`the first kept-warm call started no owner: ${first.stderr}`);
    try {
      for (let round = 0; round < rounds; round++) {
        add("node", await run(["-e", "0"], env));
        add("warm_store", await run(store(2 * rounds + 1 + round), warmEnv));
        add("warm_recall", await run(recall(2 * rounds + round), warmEnv));
      }
    } finally {
      await stopProcess(owner);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const node = percentiles(samples.get("node")!);
  const of = (name: string): CliCase => {
    const ms = percentiles(samples.get(name)!);
    return { ms, over_node: Math.round((ms.p50 / node.p50) * 100) / 100 };
  };
  return {
    node_ms: node,
    refused: of("refused"),
    stats_no_model: of("stats_no_model"),
    cold_store: of("cold_store"),
    cold_recall: of("cold_recall"),
    forwarded_store: of("forwarded_store"),
    forwarded_recall: of("forwarded_recall"),
    warm_first_store_ms: Math.round(warmFirst),
    warm_store: of("warm_store"),
    warm_recall: of("warm_recall"),
    embedder: options.embedder || "default model",
  };
}
