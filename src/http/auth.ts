/** Optional bearer API key. */
import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { errorResponse } from "./errors.js";

// Hashing first gives equal-length buffers, so neither the key nor its length leaks by timing.
const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

export function bearerAuth(apiKey: string): MiddlewareHandler {
  const expected = digest(apiKey);
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
    if (!timingSafeEqual(digest(match[1]!), expected)) {
      return errorResponse(c, "UNAUTHORIZED", "the API key is not valid", {
        headers: { "WWW-Authenticate": 'Bearer realm="hindsight", error="invalid_token"' },
      });
    }
    return next();
  };
}
