/**
 * A fresh, empty database per case, below the memory store: for tests of migrations and SQL
 * that need the driver itself. Opened as the product opens a store (open-store's openDriver).
 */
import { afterEach } from "vitest";
import { silentLogger } from "../../src/adapters/logger.js";
import type { SqlDriver } from "../../src/adapters/storage/executor.js";
import { openDriver } from "../../src/adapters/storage/open-store.js";
import type { Backend } from "./backends.js";

/** Returns an opener of fresh databases on `backend`; each is closed and removed after its case. */
export function freshDrivers(backend: Backend): () => Promise<SqlDriver> {
  let opened: SqlDriver | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await opened?.close();
    await cleanup?.();
    opened = undefined;
    cleanup = undefined;
  });
  return async () => {
    const fresh = await backend.fresh();
    cleanup = fresh.cleanup;
    opened = await openDriver(fresh.location, silentLogger);
    return opened;
  };
}
