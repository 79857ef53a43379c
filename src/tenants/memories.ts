/**
 * One memory per tenant, opened on the tenant's first request. An embedded tenant costs about
 * 170 MB while open (more for a large store, whose buffer pool grows with it: see
 * adapters/storage/pglite-buffers), so a tenant idle for `idleMs` with nothing in flight is
 * closed, and opened again by its next request; callers hold a handle that stays valid
 * throughout.
 */
import type { HindsightConfig } from "../config/schema.js";
import type { MemoryApi } from "../core/memory-api.js";
import { createHindsight, type HindsightDeps } from "../index.js";
import { DEFAULT_TENANT } from "./tenant.js";

export interface TenantMemoriesOptions {
  /** How long a tenant may sit idle before it is closed; default 10 minutes. 0: never. */
  idleMs?: number;
}

interface OpenTenant {
  memory: Promise<MemoryApi>;
  inFlight: number;
  idleTimer: NodeJS.Timeout | undefined;
}

export class TenantMemories {
  private readonly open = new Map<string, OpenTenant>();
  private readonly handles = new Map<string, MemoryApi>();
  private readonly idleMs: number;

  /**
   * @param config the default tenant's configuration; others derive theirs from it.
   * @param defaultMemory the default tenant's memory, already open.
   */
  constructor(
    private readonly config: HindsightConfig,
    private readonly defaultMemory: MemoryApi,
    private readonly deps: HindsightDeps = {},
    options: TenantMemoriesOptions = {},
  ) {
    this.idleMs = options.idleMs ?? 10 * 60_000;
  }

  /** A handle on the tenant's memory, opening it now (so a store that cannot open says so). */
  async get(tenant: string): Promise<MemoryApi> {
    if (tenant === DEFAULT_TENANT) return this.defaultMemory;
    await this.opened(tenant).memory;
    let handle = this.handles.get(tenant);
    if (!handle) {
      handle = this.handle(tenant);
      this.handles.set(tenant, handle);
    }
    return handle;
  }

  /** How many tenants are open now (the default one not counted). */
  get openCount(): number {
    return this.open.size;
  }

  /** Closes every tenant's memory but the default one, which its opener closes. */
  async close(): Promise<void> {
    const opened = [...this.open.values()];
    this.open.clear();
    for (const tenant of opened) clearTimeout(tenant.idleTimer);
    await Promise.all(
      opened.map(async (tenant) => (await tenant.memory.catch(() => undefined))?.close()),
    );
  }

  private opened(tenant: string): OpenTenant {
    let entry = this.open.get(tenant);
    if (!entry) {
      const memory = createHindsight({ ...this.config, tenant }, this.deps);
      const created: OpenTenant = { memory, inFlight: 0, idleTimer: undefined };
      // A tenant whose store failed to open is tried again on its next request.
      memory.catch(() => {
        if (this.open.get(tenant) === created) this.open.delete(tenant);
      });
      this.open.set(tenant, created);
      entry = created;
      this.scheduleIdle(tenant, entry);
    }
    return entry;
  }

  /** Every call opens the tenant if it was closed, and counts as use. */
  private handle(tenant: string): MemoryApi {
    return new Proxy({} as MemoryApi, {
      get: (_target, name) => {
        // The tenant's memory outlives any one caller: closing is the registry's.
        if (name === "close") return async () => {};
        if (name === "then") return undefined;
        return async (...args: unknown[]) => {
          const entry = this.opened(tenant);
          entry.inFlight++;
          clearTimeout(entry.idleTimer);
          try {
            const memory = (await entry.memory) as unknown as Record<
              string,
              (...a: unknown[]) => unknown
            >;
            return await memory[name as string]!(...args);
          } finally {
            entry.inFlight--;
            this.scheduleIdle(tenant, entry);
          }
        };
      },
    });
  }

  private scheduleIdle(tenant: string, entry: OpenTenant): void {
    if (this.idleMs <= 0 || entry.inFlight > 0) return;
    clearTimeout(entry.idleTimer);
    entry.idleTimer = setTimeout(() => {
      if (entry.inFlight > 0 || this.open.get(tenant) !== entry) return;
      this.open.delete(tenant);
      void entry.memory.then(
        (memory) => memory.close(),
        () => undefined,
      );
    }, this.idleMs);
    // An idle tenant's timer must not keep the process alive.
    entry.idleTimer.unref();
  }
}
