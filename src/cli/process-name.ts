/**
 * The process's name as `ps`, `top`, `pgrep` and `kill` by name see it.
 *
 * On Linux a process is named after its main thread, and Node 24 names its main thread
 * `MainThread`: `pgrep node` and `pkill node` stop finding a hindsight server, `top` shows a
 * `MainThread` nobody started, and the Compose boot check that kills the server's `node` process
 * to test `restart: unless-stopped` found nothing to kill. Node 20 and 22 keep `node`.
 *
 * `process.title` would rename it too, but overwrites the command line (`ps` would no longer
 * show `serve --port 8080`); writing the thread's own name leaves the command line as given.
 */
import { readFileSync, writeFileSync } from "node:fs";

/** Where Linux keeps the name of the calling process's main thread. */
const MAIN_THREAD_NAME = "/proc/self/comm";

/**
 * Names the process `node` again where Node named it `MainThread`; any other name (a user's
 * own `process.title`, another platform's) is left alone. `file` is for tests.
 */
export function restoreProcessName(file = MAIN_THREAD_NAME): void {
  if (process.platform !== "linux") return;
  try {
    if (readFileSync(file, "utf8").trim() === "MainThread") writeFileSync(file, "node");
  } catch {
    // No /proc (a restricted container) or not writable: the name is cosmetic, never fatal.
  }
}
