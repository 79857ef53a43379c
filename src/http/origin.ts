/**
 * Host and Origin checks against DNS rebinding: a web page whose name is re-pointed at
 * 127.0.0.1 is same-origin for the browser but still sends its own name as Host, and a
 * cross-site page sends its Origin. Both are refused unless allowed.
 */
import type { MiddlewareHandler } from "hono";
import { errorResponse } from "./errors.js";

export const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"] as const;

/** `Example.com:8080` → `example.com`; `[::1]:80` and `::1` → `[::1]`. */
export function hostnameOf(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith("[")) {
    const end = value.indexOf("]");
    return end === -1 ? value : value.slice(0, end + 1);
  }
  if (value.split(":").length > 2) return `[${value}]`;
  return value.split(":")[0] ?? value;
}

function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.origin === "null" ? undefined : url.origin;
  } catch {
    return undefined;
  }
}

export interface OriginPolicy {
  /** Host names accepted besides the loopback names; ports are ignored. */
  allowedHosts?: readonly string[];
  /** Exact origins (`https://app.example`) accepted besides those on an allowed host. */
  allowedOrigins?: readonly string[];
}

export function hostGuard(policy: OriginPolicy): MiddlewareHandler {
  const hosts = new Set([...LOOPBACK_HOSTS, ...(policy.allowedHosts ?? []).map(hostnameOf)]);
  const origins = new Set(
    (policy.allowedOrigins ?? []).flatMap((value) => originOf(value.trim()) ?? []),
  );
  return async (c, next) => {
    const host = c.req.header("host");
    if (host === undefined || !hosts.has(hostnameOf(host))) {
      return errorResponse(c, "FORBIDDEN", `host '${host ?? ""}' is not allowed`, {
        field: "Host",
      });
    }
    const origin = c.req.header("origin");
    if (origin !== undefined) {
      const parsed = originOf(origin);
      const allowed =
        parsed !== undefined && (origins.has(parsed) || hosts.has(new URL(parsed).hostname));
      if (!allowed) {
        return errorResponse(c, "FORBIDDEN", `origin '${origin}' is not allowed`, {
          field: "Origin",
        });
      }
    }
    return next();
  };
}
