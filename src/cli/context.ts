/**
 * Opens hindsight for one CLI command from the environment and the global flags, and closes
 * it afterwards, whatever happens.
 */
import type { Command } from "commander";
import { LOG_LEVELS, type LogLevel, stderrLogger } from "../adapters.js";
import { configFromEnv } from "../config/env.js";
import { ErrorCode, HindsightError } from "../core/errors.js";
import type { Logger } from "../core/ports.js";
import { createHindsight, type Hindsight } from "../index.js";
import { type FlagNames, reportError } from "./output.js";

export interface GlobalFlags {
  databaseUrl?: string;
  dataDir?: string;
  tenant?: string;
  logLevel?: string;
}

export function logLevel(flags: GlobalFlags): LogLevel {
  const level = flags.logLevel ?? process.env.HINDSIGHT_LOG_LEVEL ?? "info";
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new HindsightError(
      ErrorCode.CONFIG_INVALID,
      `log level '${level}' is not one of ${LOG_LEVELS.join(", ")}`,
      { field: "log_level" },
    );
  }
  return level as LogLevel;
}

/**
 * Runs a command body with an open hindsight, prints errors on stderr and sets the exit code.
 * The body builds its input inside, so input errors are reported the same way.
 */
export async function withHindsight(
  command: Command,
  options: { json?: boolean },
  flagNames: FlagNames,
  body: (memory: Hindsight, logger: Logger) => Promise<void>,
): Promise<void> {
  let memory: Hindsight | undefined;
  try {
    const flags = command.optsWithGlobals<GlobalFlags>();
    const logger = stderrLogger(logLevel(flags));
    memory = await createHindsight(configFromEnv(process.env, flags), { logger });
    await body(memory, logger);
  } catch (error) {
    process.exitCode = reportError(error, options, flagNames);
  } finally {
    await memory?.close().catch((error: unknown) => {
      process.exitCode = reportError(error, options);
    });
  }
}
