/**
 * A PostgreSQL server of the test's own, in a temporary directory on a free port, so a test
 * can stop, crash and restart it without disturbing the shared server other tests use. Uses
 * the machine's PostgreSQL binaries (and so its pgvector). PostgreSQL refuses to run as root:
 * when the tests run as root, the server runs as the `postgres` user.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, chown, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "./free-port.js";

const run = promisify(execFile);

function binDir(): string | undefined {
  for (const version of ["17", "16", "15", "14"]) {
    const dir = `/usr/lib/postgresql/${version}/bin`;
    if (existsSync(join(dir, "pg_ctl"))) return dir;
  }
  return undefined;
}

/** Why no private server can be started here, or undefined when one can. */
export const privatePostgresSkipReason: string | undefined = binDir()
  ? undefined
  : "no PostgreSQL server binaries under /usr/lib/postgresql";

export interface PrivatePostgres {
  url: string;
  /** Kills the server without a clean shutdown (like a crash), then starts it again. */
  crashAndRestart(): Promise<void>;
  /**
   * Stops (SIGSTOP) the server and every backend: connections stay open and nothing answers,
   * like a hung host or a network partition. `thaw` resumes them.
   */
  freeze(): Promise<void>;
  thaw(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  if (!bin) throw new Error(privatePostgresSkipReason);
  const root = await mkdtemp(join(tmpdir(), "hindsight-pg-"));
  const data = join(root, "data");
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    await chown(root, Number(stdout.trim()), Number(gid.trim()));
  }
  await chmod(root, 0o700);
  const pg = (tool: string, args: string[]) =>
    asRoot
      ? run("runuser", ["-u", "postgres", "--", join(bin, tool), ...args])
      : run(join(bin, tool), args);
  await pg("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-instructions"]);
  const port = await freePort();
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c max_connections=50`;
  const start = () =>
    pg("pg_ctl", ["-D", data, "-o", options, "-l", join(root, "log"), "-w", "-t", "60", "start"]);
  await start();
  /** The postmaster (first line of postmaster.pid) and its children. */
  const signalAll = async (signal: "STOP" | "CONT") => {
    const pid = (await readFile(join(data, "postmaster.pid"), "utf8")).split("\n")[0]!.trim();
    const children = await run("pgrep", ["-P", pid]).then(
      ({ stdout }) => stdout.split("\n").filter(Boolean),
      () => [] as string[],
    );
    await run("kill", [`-${signal}`, pid, ...children]);
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async crashAndRestart() {
      await pg("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      await start();
    },
    async freeze() {
      await signalAll("STOP");
    },
    async thaw() {
      await signalAll("CONT");
    },
    async stop() {
      await pg("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]).catch(() => undefined);
      await rm(root, { recursive: true, force: true });
    },
  };
}
