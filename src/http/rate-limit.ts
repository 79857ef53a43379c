/**
 * Per-client request limits: one client looping on recall or store must not starve the
 * others or the database. A client is its API key (hashed, never kept in memory as given),
 * or its address when no key is sent. Over the limit: 429 with Retry-After.
 */
import { createHash } from "node:crypto";
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

const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i;

function clientKey(c: Context): string {
  const key = bearer.exec(c.req.header("authorization") ?? "")?.[1];
  if (key) return `key:${createHash("sha256").update(key).digest("base64url").slice(0, 22)}`;
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
