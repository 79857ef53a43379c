/**
 * The HTTP surface: REST under /v1, MCP at /mcp, health, metrics and the OpenAPI document,
 * all thin translations of MemoryApi calls, and the memory inspector's page at /ui.
 */
import { type Handler, Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { stderrLogger } from "../adapters/logger.js";
import { ErrorCode, HindsightError } from "../core/errors.js";
import type { MemoryApi } from "../core/memory-api.js";
import type { Logger } from "../core/ports.js";
import { createMcpHttpHandler } from "../mcp/http.js";
import { scopeToAgent } from "../tenants/agent-scope.js";
import { type ApiKeyTable, keyDigest } from "../tenants/api-keys.js";
import { DEFAULT_TENANT } from "../tenants/tenant.js";
import { type AuthVariables, bearerAuth } from "./auth.js";
import { errorResponse, handleError } from "./errors.js";
import { createHttpMetrics, type HttpMetricsOptions } from "./metrics.js";
import { buildOpenApiDocument } from "./openapi.js";
import { hostGuard } from "./origin.js";
import { rateLimit } from "./rate-limit.js";
import { honoPath, type RouteDeps } from "./route.js";
import { ROUTES } from "./routes/index.js";
import { loadUi, serveUi } from "./ui.js";

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

export interface HttpAppOptions {
  /** When set, `/v1/*`, `/mcp` and `/metrics` need `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /**
   * API keys by tenant (digest → tenant, see tenants/api-keys): each request reaches the
   * memories of its key's tenant. Combined with `apiKey`, which belongs to the default tenant.
   */
  apiKeys?: ApiKeyTable;
  /** Opens a tenant's memory; required when `apiKeys` name tenants other than the default. */
  tenantMemory?: (tenant: string) => Promise<MemoryApi>;
  /** Host names accepted on `/v1/*` and `/mcp` besides localhost, 127.0.0.1 and [::1]. */
  allowedHosts?: string[];
  /** Origins accepted besides those whose host name is allowed. */
  allowedOrigins?: string[];
  /** Requests per client (API key, or address without one) per minute on /v1 and /mcp; off when absent. */
  rateLimitPerMinute?: number;
  /** Largest request body accepted; default 1 MiB. */
  bodyLimitBytes?: number;
  /** Defaults to errors on stderr: a failure nobody sees is a bug nobody fixes. */
  logger?: Logger;
  metrics?: HttpMetricsOptions;
}

export type HttpApp = Hono<{ Variables: AuthVariables }>;

export function createHttpApp(memory: MemoryApi, options: HttpAppOptions = {}): HttpApp {
  checkOptions(options);
  const logger = options.logger ?? stderrLogger("error");
  const metrics = createHttpMetrics(memory, logger, options.metrics);
  const keys = keyTable(options);
  let openapi: unknown;
  const openapiDocument = () => {
    openapi ??= buildOpenApiDocument(ROUTES, {
      bearerAuth: keys !== undefined,
      rateLimit: options.rateLimitPerMinute !== undefined,
    });
    return openapi;
  };
  const depsOf = (tenantMemory: MemoryApi): RouteDeps => ({
    memory: tenantMemory,
    metrics,
    openapi: openapiDocument,
    mcp: createMcpHttpHandler(tenantMemory, { logger }),
  });
  const defaultDeps = depsOf(memory);
  const tenantDeps = new Map<string, Promise<RouteDeps>>();
  const tenantOf = (tenant: string | undefined): RouteDeps | Promise<RouteDeps> => {
    if (tenant === undefined || tenant === DEFAULT_TENANT) return defaultDeps;
    let deps = tenantDeps.get(tenant);
    if (!deps) {
      const open = options.tenantMemory;
      if (!open) throw new Error(`no tenantMemory to open tenant ${tenant}`);
      deps = open(tenant).then(depsOf);
      deps.catch(() => tenantDeps.delete(tenant));
      tenantDeps.set(tenant, deps);
    }
    return deps;
  };
  const agentDeps = new Map<string, Promise<RouteDeps>>();
  /**
   * The memory behind every route of a request: its key's tenant's, seen as its key's agent
   * when the key is bound to one. Nothing else is reachable.
   */
  const depsFor = (tenant: string | undefined, agent: string | undefined) => {
    if (agent === undefined) return tenantOf(tenant);
    const id = `${tenant ?? DEFAULT_TENANT}/${agent}`;
    let deps = agentDeps.get(id);
    if (!deps) {
      deps = Promise.resolve(tenantOf(tenant)).then((base) =>
        depsOf(scopeToAgent(base.memory, agent)),
      );
      deps.catch(() => agentDeps.delete(id));
      agentDeps.set(id, deps);
    }
    return deps;
  };

  const auth = keys === undefined ? undefined : bearerAuth(keys);
  const guard = hostGuard(options);
  const limiter =
    options.rateLimitPerMinute === undefined
      ? undefined
      : rateLimit({ limit: options.rateLimitPerMinute });
  const maxSize = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  // After the Host and key checks, so strangers cannot make the server read large bodies.
  const limit = bodyLimit({
    maxSize,
    onError: (c) => errorResponse(c, "PAYLOAD_TOO_LARGE", `request body exceeds ${maxSize} bytes`),
  });

  const app: HttpApp = new Hono();
  app.use("*", metrics.middleware);
  for (const route of ROUTES) {
    const chain: MiddlewareHandler[] = [
      ...(route.hostCheck ? [guard] : []),
      ...(route.auth && auth ? [auth] : []),
      // Counted after the key check, so strangers cannot spend a client's budget.
      ...(route.auth && limiter ? [limiter] : []),
      limit,
    ];
    const handler: Handler<{ Variables: AuthVariables }> = async (c) =>
      route.handle(c, await depsFor(c.get("tenant"), c.get("agent")));
    // Hono's "ALL" matches every method.
    app.on(route.method.toUpperCase(), [honoPath(route.path)], ...chain, handler);
  }
  // The inspector's page and assets: no data in them, so no key; the Host check still applies.
  const ui = serveUi(loadUi(), keys !== undefined);
  app.get("/ui", guard, ui);
  app.get("/ui/:file", guard, ui);
  app.notFound((c) =>
    errorResponse(c, "ROUTE_NOT_FOUND", `no route ${c.req.method} ${new URL(c.req.url).pathname}`),
  );
  app.onError((error, c) => handleError(error, c, logger));
  return app;
}

function keyTable(options: HttpAppOptions): ApiKeyTable | undefined {
  if (options.apiKey === undefined && options.apiKeys === undefined) return undefined;
  const table = new Map(options.apiKeys ?? []);
  if (options.apiKey !== undefined) {
    table.set(keyDigest(options.apiKey), { tenant: DEFAULT_TENANT });
  }
  return table;
}

function checkOptions(options: HttpAppOptions): void {
  const others = [...(options.apiKeys?.values() ?? [])].some(
    (holder) => holder.tenant !== DEFAULT_TENANT,
  );
  if (others && !options.tenantMemory) {
    throw new HindsightError(
      ErrorCode.CONFIG_INVALID,
      "tenantMemory: required when apiKeys name tenants other than the default",
      { field: "tenantMemory" },
    );
  }
  // An empty key would lock every client out (or, read as "no key", open the server): refuse it.
  if (options.apiKey !== undefined && options.apiKey.trim() === "") {
    throw new HindsightError(ErrorCode.CONFIG_INVALID, "apiKey: must not be empty", {
      field: "apiKey",
    });
  }
  const perMinute = options.rateLimitPerMinute;
  if (perMinute !== undefined && !(Number.isSafeInteger(perMinute) && perMinute > 0)) {
    throw new HindsightError(
      ErrorCode.CONFIG_INVALID,
      "rateLimitPerMinute: must be a positive integer",
      {
        field: "rateLimitPerMinute",
      },
    );
  }
  const limit = options.bodyLimitBytes;
  if (limit !== undefined && !(Number.isSafeInteger(limit) && limit > 0)) {
    throw new HindsightError(
      ErrorCode.CONFIG_INVALID,
      "bodyLimitBytes: must be a positive integer",
      {
        field: "bodyLimitBytes",
      },
    );
  }
}
