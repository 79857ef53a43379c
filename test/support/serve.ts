/** `hindsight serve` as shipped: the built CLI spawned on a free port. */
import { type ChildProcess, spawn } from "node:child_process";
import { CLI } from "./cli.js";

export interface Served {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

const children: ChildProcess[] = [];

/** Starts `hindsight serve --port 0` and resolves once it prints where it listens. */
export function serve(env: Record<string, string | undefined>): Promise<Served> {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const match =
        /hindsight: listening on (http:\/\/127\.0\.0\.1:(\d+)) \(REST \/v1, MCP \/mcp\)/.exec(
          stderr,
        );
      if (match) resolve({ child, url: match[1]!, stderr: () => stderr, exited });
    });
    void exited.then((code) =>
      reject(new Error(`serve exited ${code} before listening: ${stderr}`)),
    );
  });
}

/** Kills every server a test started and left running; for afterEach. */
export function killServers(): void {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
}
