/**
 * Opens hindsight for one CLI command from the environment and the global flags, and closes
 * it afterwards, whatever happens.
 */
import type { Command } from "commander";
import { LOG_LEVELS, type LogLevel, stderrLogger } from "../adapters/logger.js";
import { configFromEnv } from "../config/env.js";
import { ErrorCode, HindsightError } from "../core/errors.js";
import type { MemoryOperation } from "../core/memory-api.js";
import type { Logger } from "../core/ports.js";
import type { OpenedHindsight as Hindsight, HindsightDeps } from "../open/hindsight.js";
import { parseConfig } from "../open/parse-config.js";
import { OPERATIONS, operationSpec } from "../operations/index.js";
import { tenantConfig } from "../tenants/tenant.js";
import { idleSeconds, warmOwnerStarter } from "./keep-warm.js";
import { type LazyMemory, lazyMemory } from "./lazy-memory.js";
import { type FlagNames, reportError } from "./output.js";

export interface GlobalFlags {
  databaseUrl?: string;
  dataDir?: string;
  tenant?: string;
  logLevel?: string;
}

const KEEP_WARM = "HINDSIGHT_KEEP_WARM";

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
 * When a command loads the embedding model: a server at start; a one-shot command whose first
 * call embeds while the store opens; any other only if it comes to embed.
 */
export function warmFor(opening: "first-call" | "now", operation: string | undefined) {
  if (opening === "now") return true;
  const known = operation !== undefined && operation in OPERATIONS;
  return known && operationSpec(operation as MemoryOperation).embeds ? "background" : false;
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
  /**
   * "first-call" (default): opened on the body's first valid call, so bad input costs nothing.
   * "now": opened before the body runs — servers (serve, mcp), which must fail at start when
   * the store cannot open, and serve every call for long.
   */
  opening: "first-call" | "now" = "first-call",
  /** What opening it takes besides the configuration, such as `warm`'s own. */
  deps: Pick<HindsightDeps, "warmEmbedder" | "wrapLocal"> = {},
): Promise<void> {
  let lazy: LazyMemory | undefined;
  try {
    const flags = command.optsWithGlobals<GlobalFlags>();
    const logger = stderrLogger(logLevel(flags));
    const input = configFromEnv(process.env, flags);
    const parsed = parseConfig(input);
    // A one-shot command may leave a process behind that keeps the directory open for the
    // next one (see keep-warm); a server is that process itself.
    const keepWarm =
      opening === "first-call" ? idleSeconds(process.env.HINDSIGHT_KEEP_WARM, KEEP_WARM) : 0;
    // Nothing is opened until the body's first call, and only once its input is valid.
    // Loaded with the store: a command refused before its first call never loads the
    // service, the storage adapters or the tokenizer.
    lazy = lazyMemory(tenantConfig(parsed, parsed.tenant), async (operation) => {
      const { openHindsight } = await import("../open/hindsight.js");
      return openHindsight(input, {
        logger,
        warmEmbedder: warmFor(opening, operation),
        oneShot: opening === "first-call",
        warmRecall: opening === "now",
        ...(keepWarm > 0 ? { startOwner: warmOwnerStarter(flags, keepWarm) } : {}),
        ...deps,
      });
    });
    if (opening === "now") {
      // Opened through the same path (so it is closed below), then used directly.
      await body(await lazy.open(), logger);
    } else {
      await body(lazy.memory, logger);
    }
  } catch (error) {
    process.exitCode = reportError(error, options, flagNames);
  } finally {
    await lazy
      ?.opened()
      ?.close()
      .catch((error: unknown) => {
        process.exitCode = reportError(error, options);
      });
  }
}
