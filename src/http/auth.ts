/**
 * Bearer API keys. Each key belongs to a tenant; the tenant of the request's key decides whose
 * memories the request reaches (see app.ts).
 */
import type { MiddlewareHandler } from "hono";
import { type ApiKeyTable, keyDigest } from "../tenants/api-keys.js";
import { errorResponse } from "./errors.js";

export interface AuthVariables {
  /** The tenant of the request's API key; unset when no keys are configured. */
  tenant?: string;
  /** The agent the request's key is bound to; unset for an operator key. */
  agent?: string;
  /** Who is calling, for per-client limits: a short digest of the valid key it presented. */
  client?: string;
}

/**
 * Keys are compared by their SHA-256 digests, looked up in a table: neither a key nor its
 * length leaks through timing, and the server never holds the keys themselves.
 */
export function bearerAuth(keys: ApiKeyTable): MiddlewareHandler<{ Variables: AuthVariables }> {
  return async (c, next) => {
    const header = c.req.header("authorization");
    const match = header === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    if (!match) {
      return errorResponse(
        c,
        "UNAUTHORIZED",
        "an API key is required: Authorization: Bearer <key>",
        {
          headers: { "WWW-Authenticate": 'Bearer realm="hindsight"' },
        },
      );
    }
    const digest = keyDigest(match[1]!);
    const holder = keys.get(digest);
    if (holder === undefined) {
      return errorResponse(c, "UNAUTHORIZED", "the API key is not valid", {
        headers: { "WWW-Authenticate": 'Bearer realm="hindsight", error="invalid_token"' },
      });
    }
    c.set("tenant", holder.tenant);
    c.set("client", `key:${digest.slice(0, 22)}`);
    if (holder.agent !== undefined) c.set("agent", holder.agent);
    return next();
  };
}
