/**
 * `hindsight warm`, loaded when the command runs: what keeps the directory open until idle.
 */
import type { Command } from "commander";
import { configFromEnv } from "../../config/env.js";
import { invalidInput } from "../../core/errors.js";
import { type IdleWatch, idleWatch } from "../../multiprocess/idle-watch.js";
import { sharesDirectory } from "../../open/hindsight.js";
import { withHindsight } from "../context.js";
import { idleSeconds } from "../keep-warm.js";
import { reportError } from "../output.js";
import { nextSignal } from "../signals.js";

const FLAGS = { idle_exit: "--idle-exit" };

export async function runWarm(options: { idleExit: string }, command: Command): Promise<void> {
  let seconds: number;
  try {
    // Checked before anything opens; 0 keeps it open until it is stopped.
    seconds = idleSeconds(options.idleExit, "idle_exit");
    if (!sharesDirectory(configFromEnv(process.env, command.optsWithGlobals()))) {
      throw invalidInput(
        "data_dir",
        "warm keeps an embedded data directory open; PostgreSQL and memory:// have nothing to keep",
      );
    }
  } catch (error) {
    process.exitCode = reportError(error, {}, FLAGS);
    return;
  }
  let watch: IdleWatch | undefined;
  await withHindsight(
    command,
    {},
    FLAGS,
    async (memory, logger) => {
      const { dataDir } = memory.config;
      if ((await memory.role?.()) !== "owner") {
        logger.info(`data directory ${dataDir} is already open in another process`);
        return;
      }
      logger.info(
        seconds > 0
          ? `keeping ${dataDir} open until ${seconds} s pass without a call`
          : `keeping ${dataDir} open until stopped`,
      );
      // An idle time of 0 never comes (see idle-watch).
      const idle = watch ? [watch.idle.then(() => "idle" as const)] : [];
      // The socket server does not keep a process alive (see rpc-server); this does.
      const alive = setInterval(() => undefined, 2 ** 30);
      const why = await Promise.race([...idle, nextSignal()]).finally(() => clearInterval(alive));
      logger.info(`closing ${dataDir} (${why})`);
    },
    "now",
    {
      // Serving starts once the store is open; the model loads meanwhile on its thread.
      warmEmbedder: "background",
      wrapLocal: (local) => {
        watch = idleWatch(seconds * 1000);
        return watch.wrap(local);
      },
    },
  );
}
