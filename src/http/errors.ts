/**
 * The one place where error codes become HTTP statuses and JSON error bodies. Core errors keep
 * their codes; the transport adds its own few (authentication, Host/Origin, size, routing),
 * which never reach the core.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type ErrorCode, isHindsightError, publicReason } from "../core/errors.js";
import type { Logger } from "../core/ports.js";

export const TransportErrorCode = {
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  RATE_LIMITED: "RATE_LIMITED",
  ROUTE_NOT_FOUND: "ROUTE_NOT_FOUND",
} as const;
export type TransportErrorCode = (typeof TransportErrorCode)[keyof typeof TransportErrorCode];

export type HttpErrorCode = ErrorCode | TransportErrorCode;

const STATUS: Record<HttpErrorCode, ContentfulStatusCode> = {
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  // The server's own configuration is wrong: retrying will not help.
  CONFIG_INVALID: 500,
  EMBEDDER_MISMATCH: 500,
  EMBEDDER_UNAVAILABLE: 500,
  INTERNAL: 500,
  // A dependency is down or busy: the same request may succeed later.
  STORAGE_FAILED: 503,
  EMBEDDER_FAILED: 503,
  LLM_FAILED: 503,
  WORKING_MEMORY_UNAVAILABLE: 503,
  DATA_DIR_IN_USE: 503,
};

export function statusFor(code: HttpErrorCode): ContentfulStatusCode {
  return STATUS[code] ?? 500;
}

/** The body is exactly ErrorOutput: details and causes stay in the server log. */
export function errorResponse(
  c: Context,
  code: HttpErrorCode,
  message: string,
  options: { field?: string | undefined; headers?: Record<string, string> } = {},
): Response {
  const body = { code, message, ...(options.field === undefined ? {} : { field: options.field }) };
  return c.json(body, statusFor(code), options.headers);
}

/**
 * Turns whatever a handler threw into a response. The caller's mistakes (4xx) keep their
 * message, which names the field; server-side failures are logged in full and answered with
 * their code and a safe reason only (`publicReason`), since their text may hold database or
 * network internals. An error without a known code is a bug, answered the same way.
 */
export function handleError(error: unknown, c: Context, logger: Logger): Response {
  const where = `${c.req.method} ${new URL(c.req.url).pathname}`;
  if (isHindsightError(error)) {
    if (statusFor(error.code) >= 500) {
      logger.error(`${where} failed: ${error.message}`, { code: error.code });
      return errorResponse(c, error.code, publicReason(error.code));
    }
    return errorResponse(c, error.code, error.message, { field: error.field });
  }
  logger.error(`${where} failed unexpectedly`, {
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  return errorResponse(c, "INTERNAL", "internal error");
}
