/**
 * Tenants: every tenant's memories live apart inside the database — a PostgreSQL schema of
 * its own, or an embedded directory of its own — so no query, however written, can reach
 * another tenant's rows, keyword statistics or working memory. Schema-per-tenant suits the
 * tens to low thousands of tenants an API-key file describes; each opens lazily.
 */
import { join } from "node:path";
import { IN_MEMORY } from "../adapters/storage/pglite.js";
import type { HindsightConfig } from "../config/schema.js";

/** The tenant of a single-tenant deployment; it keeps the store exactly where it was. */
export const DEFAULT_TENANT = "default";

/** The PostgreSQL schema of a tenant other than the default one. */
export function tenantSchema(tenant: string): string {
  return `hindsight_${tenant}`;
}

/**
 * The configuration of one tenant's store: the default tenant's is the configuration itself;
 * any other gets its own schema (PostgreSQL) or its own directory under the data directory.
 */
export function tenantConfig(config: HindsightConfig, tenant: string): HindsightConfig {
  if (tenant === DEFAULT_TENANT) return config;
  return {
    ...config,
    tenant,
    ...(config.databaseUrl ? { databaseSchema: tenantSchema(tenant) } : {}),
    dataDir: config.dataDir === IN_MEMORY ? IN_MEMORY : join(config.dataDir, "tenants", tenant),
    // Session ids cannot hold "/", so no default-tenant session's key can look like these.
    working: { ...config.working, keyPrefix: `${config.working.keyPrefix}tenant/${tenant}/` },
  };
}
