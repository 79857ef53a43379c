/**
 * Keeping an embedded directory warm between one-shot commands. An agent hook runs
 * `hindsight store` or `recall` once per turn, a new process each time, and each would open
 * the database and load the embedding model again (seconds, most of it the model). With
 * HINDSIGHT_KEEP_WARM=<seconds>, a command that finds the directory free starts
 * `hindsight warm` in the background instead and forwards to it; later commands forward too
 * (a few hundred milliseconds), until that process has had no call for that long and exits.
 */
import { spawn } from "node:child_process";
import { closeSync, openSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { ErrorCode, HindsightError } from "../core/errors.js";
import type { StartedOwner } from "../multiprocess/shared-directory.js";
import type { GlobalFlags } from "./context.js";

/** A week: an owner nobody calls should not outlive that. */
const MAX_SECONDS = 7 * 24 * 3600;

/** Where a started owner's log goes: beside the data it serves, readable by its owner only. */
const WARM_LOG = "warm.log";

/**
 * How large the log may grow before the next owner starts a new one. Owners come and go for
 * months on a machine whose hook keeps a directory warm; one earlier log is kept beside it.
 */
const WARM_LOG_MAX_BYTES = 1024 * 1024;

/**
 * Opens the log a started owner writes to, for appending: a log past its size limit is moved
 * to `warm.log.1` first (replacing the one before it). An owner still writing the moved file
 * keeps writing it: its descriptor follows the file, not the name.
 */
export function openWarmLog(dataDir: string, maxBytes = WARM_LOG_MAX_BYTES): number {
  const path = join(dataDir, WARM_LOG);
  const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  if (size > maxBytes) renameSync(path, `${path}.1`);
  return openSync(path, "a", 0o600);
}

/** Seconds of idleness from `value` (absent, empty or 0: off), naming `field` when invalid. */
export function idleSeconds(value: string | undefined, field: string): number {
  const text = value?.trim() ?? "";
  if (text === "") return 0;
  const seconds = Number(text);
  if (!/^\d+$/.test(text) || seconds > MAX_SECONDS) {
    throw new HindsightError(
      ErrorCode.CONFIG_INVALID,
      `${field}: '${value}' is not a whole number of seconds from 0 to ${MAX_SECONDS}`,
      { field },
    );
  }
  return seconds;
}

/** The global flags a started owner needs to open the same directory as this command. */
function globalArgs(flags: GlobalFlags): string[] {
  return [
    ...(flags.dataDir ? ["--data-dir", flags.dataDir] : []),
    ...(flags.tenant ? ["--tenant", flags.tenant] : []),
    ...(flags.logLevel ? ["--log-level", flags.logLevel] : []),
  ];
}

/**
 * Starts `hindsight warm` for a directory, detached from this command: it outlives it, and
 * holds none of its pipes (a caller reading this command's output is not kept waiting).
 */
export function warmOwnerStarter(
  flags: GlobalFlags,
  seconds: number,
): (dataDir: string) => StartedOwner {
  return (dataDir) => {
    const log = openWarmLog(dataDir);
    try {
      const child = spawn(
        process.execPath,
        [
          ...process.execArgv,
          process.argv[1] as string,
          ...globalArgs(flags),
          "warm",
          "--idle-exit",
          String(seconds),
        ],
        { detached: true, stdio: ["ignore", "ignore", log], env: process.env },
      );
      let running = true;
      child.once("exit", () => {
        running = false;
      });
      child.once("error", () => {
        running = false;
      });
      child.unref();
      return { pid: child.pid, running: () => running };
    } finally {
      closeSync(log);
    }
  };
}
