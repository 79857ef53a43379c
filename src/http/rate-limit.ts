/**
 * Per-client request limits: one client looping on recall or store must not starve the
 * others or the database. A client is the API key it was authenticated with (as its digest),
 * or its address when keys are not configured. Only a key the server accepted counts as a
 * client of its own: a made-up bearer token per request used to earn a fresh budget each time.
 * Over the limit: 429 with Retry-After.
 */
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import { rateLimiter } from "hono-rate-limiter";
import { errorResponse } from "./errors.js";

export interface RateLimitOptions {
  /** Requests each client may make per window. */
  limit: number;
  /** Window length; default one minute. */
  windowMs?: number;
}

function clientKey(c: Context): string {
  // Set by bearerAuth, which runs first, for a key it accepted.
  const client = c.get("client") as string | undefined;
  if (client) return client;
  try {
    return `address:${getConnInfo(c).remote.address ?? "unknown"}`;
  } catch {
    // Not served by Node (in-process `app.request`): every caller is the same client.
    return "address:local";
  }
}

export function rateLimit(options: RateLimitOptions): MiddlewareHandler {
  const windowMs = options.windowMs ?? 60_000;
  return rateLimiter({
    windowMs,
    limit: options.limit,
    standardHeaders: "draft-7",
    keyGenerator: clientKey,
    handler: (c) => {
      const reset = (c.get("rateLimit") as { resetTime?: Date } | undefined)?.resetTime;
      const seconds = Math.max(
        1,
        Math.ceil(((reset?.getTime() ?? Date.now() + windowMs) - Date.now()) / 1000),
      );
      return errorResponse(
        c,
        "RATE_LIMITED",
        `too many requests: at most ${options.limit} per ${windowMs / 1000} s; retry in ${seconds} s`,
        { headers: { "Retry-After": String(seconds) } },
      );
    },
  });
}
