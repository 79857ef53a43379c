/**
 * Opening hindsight from a configuration: the service in this process, or a client of the
 * process that owns a shared embedded directory. The library (`createHindsight`) gives this
 * object its typed face; the CLI, a surface like REST and MCP, uses it as it is and lets the
 * service validate what the user typed.
 */
import { infoAsDebug, silentLogger } from "../adapters/logger.js";
import { IN_MEMORY } from "../adapters/storage/pglite.js";
import { ensurePrivateDirectory } from "../adapters/storage/private-dir.js";
import type { HindsightConfig, HindsightConfigInput } from "../config/schema.js";
import type { MemoryApi } from "../core/memory-api.js";
import type { Clock, Embedder, LanguageModel, Logger } from "../core/ports.js";
import {
  openSharedEmbeddedMemory,
  type SharedDirectoryOptions,
} from "../multiprocess/shared-directory.js";
import { tenantConfig } from "../tenants/tenant.js";
import { parseConfig } from "./parse-config.js";

export interface HindsightDeps {
  logger?: Logger;
  clock?: Clock;
  /** A ready embedder, instead of the one the configuration names. */
  embedder?: Embedder;
  /** A ready language model, instead of the one the configuration names. */
  llm?: LanguageModel;
  /**
   * true (default): loads the local embedding model while opening, so a broken model fails at
   * start. "background": starts loading it while the store opens without waiting for it, for a
   * caller about to embed; a failure shows on that embedding. false: loads it on the first
   * embedding only — a one-shot command that never embeds never loads it.
   */
  warmEmbedder?: boolean | "background";
  /**
   * This process opens hindsight for one command and exits (a one-shot CLI call), so the
   * embedded store starts lean: a small buffer pool, a fraction of the start-up; and what
   * opening announces at info is logged at debug.
   */
  oneShot?: boolean;
  /**
   * This process will serve many recalls (a server, `mcp`, a warm owner): once the store is
   * open, a few read-only recalls run in the background, so that the first ones asked for do
   * not pay for a new process's cold statements and code (see core/recall/warm-up).
   */
  warmRecall?: boolean;
  /** On a free embedded directory: start a process to own it, and forward to that one. */
  startOwner?: SharedDirectoryOptions["startOwner"];
  /** Wraps the service this process opens, before others' calls reach it (see idle-watch). */
  wrapLocal?: (memory: MemoryApi) => MemoryApi;
}

/**
 * The service in this process, loaded on demand: a process that forwards to the directory's
 * owner never loads the storage adapters, the service or the tokenizer.
 */
async function openService(...args: Parameters<typeof import("./service.js").openService>) {
  const service = await import("./service.js");
  return service.openService(...args);
}

/** An opened hindsight, as the surfaces see it: inputs are validated by the service. */
export interface OpenedHindsight extends MemoryApi {
  readonly config: Readonly<HindsightConfig>;
  /**
   * On a shared embedded directory: "owner" when this process holds the database, "client"
   * when it forwards to the process that does. Absent for PostgreSQL and in-memory stores.
   */
  role?(): Promise<"owner" | "client">;
}

/**
 * Whether a configuration opens an embedded data directory that processes share (one owns
 * it, the others forward): not PostgreSQL, and not a throw-away in-memory store.
 */
export function sharesDirectory(config: { databaseUrl?: string; dataDir: string }): boolean {
  return !config.databaseUrl && config.dataDir !== IN_MEMORY;
}

/**
 * Opens hindsight. On an embedded data directory several processes may do so at once: the
 * first owns the database and the others forward to it (see multiprocess/shared-directory).
 */
export async function openHindsight(
  input: HindsightConfigInput,
  deps: HindsightDeps = {},
): Promise<OpenedHindsight> {
  // A tenant other than the default one has a store of its own (see tenants/tenant.ts).
  const parsed = parseConfig(input);
  const config = tenantConfig(parsed, parsed.tenant);
  const { startOwner, wrapLocal = (memory: MemoryApi) => memory, ...rest } = deps;
  const logger = deps.logger ?? silentLogger;
  // What opening announces (the store, the model, forwarding) is for a server's log, not for
  // every one-shot command's stderr.
  const announce = rest.oneShot ? infoAsDebug(logger) : logger;
  const serviceDeps = { ...rest, logger, announce };
  let memory: MemoryApi;
  if (!sharesDirectory(config)) {
    memory = await openService(config, serviceDeps);
  } else {
    await ensurePrivateDirectory(config.dataDir, { field: "HINDSIGHT_DATA_DIR" });
    memory = await openSharedEmbeddedMemory({
      dataDir: config.dataDir,
      lockTimeoutMs: config.lockTimeoutMs,
      logger: announce,
      openLocal: async () => wrapLocal(await openService(config, serviceDeps)),
      ...(startOwner ? { startOwner } : {}),
    });
  }
  return Object.assign(memory, { config });
}
