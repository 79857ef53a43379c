/**
 * The one place where failures become MCP tool results. The caller's mistakes (bad
 * arguments, unknown ids) come back as `isError` results the model can act on; our own
 * failures come back generic, with the details logged to stderr, never to stdout.
 *
 * No `structuredContent` on errors: the SDK's clients validate any structuredContent against
 * the tool's outputSchema, even on an error result, so the error object travels in `_meta`.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type ErrorCode, isHindsightError, publicReason } from "../core/errors.js";
import type { Logger } from "../core/ports.js";

/** `_meta` key of the error object `{code, message, field?}` on an error result. */
export const ERROR_META_KEY = "hindsight/error";

/** Codes the caller caused and can fix: their message is safe and useful to show. */
const CALLER_CODES: ReadonlySet<ErrorCode> = new Set([
  "INVALID_INPUT",
  "NOT_FOUND",
  "PERMISSION_DENIED",
]);

function result(code: string, message: string, field?: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: `${message} [${code}]` }],
    _meta: { [ERROR_META_KEY]: { code, message, ...(field === undefined ? {} : { field }) } },
  };
}

export function toolError(error: unknown, tool: string, logger: Logger): CallToolResult {
  if (isHindsightError(error) && CALLER_CODES.has(error.code)) {
    return result(error.code, error.message, error.field);
  }
  const code = isHindsightError(error) ? error.code : "INTERNAL";
  logger.error(`mcp tool ${tool} failed`, {
    code,
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  return result(code, `${tool} could not complete: ${publicReason(code)}`);
}
