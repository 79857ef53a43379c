/** Logger adapters: stderr at a level, or silent. */
import { format } from "node:util";
import type { LogFields, Logger } from "../core/ports.js";

export const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Logs to stderr, never stdout: under MCP stdio, stdout is the protocol channel.
 */
export function stderrLogger(
  level: LogLevel = "info",
  write = (line: string) => process.stderr.write(line),
): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const log = (at: LogLevel) => (message: string, fields?: LogFields) => {
    if (LOG_LEVELS.indexOf(at) < threshold) return;
    const extra = fields && Object.keys(fields).length > 0 ? ` ${format("%j", fields)}` : "";
    write(`hindsight ${at}: ${message}${extra}\n`);
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

export const silentLogger: Logger = stderrLogger("silent");

/**
 * The same logger with its info lines at debug: what a one-shot command's opening announces
 * (the store, the embedder, the language model in use) is noise on every agent turn, and
 * `stats` shows it; its warnings still show.
 */
export function infoAsDebug(logger: Logger): Logger {
  return { ...logger, info: (message, fields) => logger.debug(message, fields) };
}
