/**
 * `hindsight warm`: keeps an embedded data directory open, with the embedding model loaded,
 * for the one-shot commands that forward to it, and exits once it has had no call for
 * --idle-exit seconds (see cli/keep-warm, which starts it on its own).
 */
import type { Command } from "commander";
import { invalidInput } from "../../core/errors.js";
import { type IdleWatch, idleWatch } from "../../multiprocess/idle-watch.js";
import { withHindsight } from "../context.js";
import { idleSeconds } from "../keep-warm.js";
import { reportError } from "../output.js";
import { nextSignal } from "../signals.js";

const FLAGS = { idle_exit: "--idle-exit" };
const DEFAULT_IDLE_SECONDS = "900";

export function registerWarm(program: Command): void {
  program
    .command("warm")
    .description(
      "keep the embedded store open and the model loaded for one-shot commands, until idle",
    )
    .option("--idle-exit <seconds>", "exit after this long without a call", DEFAULT_IDLE_SECONDS)
    .action(async (options: { idleExit: string }, command: Command) => {
      let seconds: number;
      try {
        // Checked before anything opens; 0 keeps it open until it is stopped.
        seconds = idleSeconds(options.idleExit, "idle_exit");
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
          const { dataDir, databaseUrl } = memory.config;
          if (memory.role === undefined || databaseUrl) {
            throw invalidInput(
              "data_dir",
              "warm keeps an embedded data directory open; PostgreSQL and memory:// have nothing to keep",
            );
          }
          if ((await memory.role()) !== "owner") {
            logger.info(`data directory ${dataDir} is already open in another process`);
            return;
          }
          logger.info(
            seconds > 0
              ? `keeping ${dataDir} open until ${seconds} s pass without a call`
              : `keeping ${dataDir} open until stopped`,
          );
          const idle = seconds > 0 && watch ? [watch.idle.then(() => "idle" as const)] : [];
          // The socket server does not keep a process alive (see rpc-server); this does.
          const alive = setInterval(() => undefined, 2 ** 30);
          const why = await Promise.race([...idle, nextSignal()]).finally(() =>
            clearInterval(alive),
          );
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
    });
}
