/**
 * One open memory per tenant, opened on a tenant's first request and kept until shutdown.
 */
import type { HindsightConfig } from "../config/schema.js";
import type { MemoryApi } from "../core/memory-api.js";
import { createHindsight, type HindsightDeps } from "../index.js";
import { DEFAULT_TENANT } from "./tenant.js";

export class TenantMemories {
  private readonly open = new Map<string, Promise<MemoryApi>>();

  /**
   * @param config the default tenant's configuration; others derive theirs from it.
   * @param defaultMemory the default tenant's memory, already open.
   */
  constructor(
    private readonly config: HindsightConfig,
    private readonly defaultMemory: MemoryApi,
    private readonly deps: HindsightDeps = {},
  ) {}

  get(tenant: string): Promise<MemoryApi> {
    if (tenant === DEFAULT_TENANT) return Promise.resolve(this.defaultMemory);
    let memory = this.open.get(tenant);
    if (!memory) {
      memory = createHindsight({ ...this.config, tenant }, this.deps);
      // A tenant whose store failed to open is tried again on its next request.
      memory.catch(() => this.open.delete(tenant));
      this.open.set(tenant, memory);
    }
    return memory;
  }

  /** Closes every tenant's memory but the default one, which its opener closes. */
  async close(): Promise<void> {
    const opened = [...this.open.values()];
    this.open.clear();
    await Promise.all(opened.map(async (memory) => (await memory.catch(() => undefined))?.close()));
  }
}
