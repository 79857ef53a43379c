import { describe, expect, it } from "vitest";
import { HindsightError, invalidInput, notFound } from "../core/errors.js";
import type { Logger } from "../core/ports.js";
import { ERROR_META_KEY, toolError } from "./errors.js";

function recordingLogger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  const ignore = () => {};
  return {
    errors,
    debug: ignore,
    info: ignore,
    warn: ignore,
    error: (message, fields) => errors.push(`${message} ${JSON.stringify(fields)}`),
  };
}

describe("toolError", () => {
  it("shows the caller's mistakes as they are, with the field", () => {
    const logger = recordingLogger();
    const result = toolError(invalidInput("top_k", "Too big"), "memory_recall", logger);
    expect(result).toEqual({
      isError: true,
      content: [{ type: "text", text: "top_k: Too big [INVALID_INPUT]" }],
      _meta: {
        [ERROR_META_KEY]: { code: "INVALID_INPUT", message: "top_k: Too big", field: "top_k" },
      },
    });
    expect(toolError(notFound("memory_id", "abc"), "memory_forget", logger)._meta).toEqual({
      [ERROR_META_KEY]: { code: "NOT_FOUND", message: "no memory with id abc", field: "memory_id" },
    });
    expect(logger.errors).toEqual([]);
  });

  it("hides our own failures behind a generic message and logs the details", () => {
    const logger = recordingLogger();
    const cause = new HindsightError("STORAGE_FAILED", "insert failed: relation secret_table", {
      cause: new Error("connection reset"),
    });
    const result = toolError(cause, "memory_store", logger);
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: "text",
        text: "memory_store could not complete: the memory store failed; retrying later may help [STORAGE_FAILED]",
      },
    ]);
    expect(JSON.stringify(result)).not.toContain("secret_table");
    expect(logger.errors[0]).toContain("secret_table");
  });

  it("treats anything unknown as INTERNAL", () => {
    const logger = recordingLogger();
    const result = toolError(new TypeError("x is undefined"), "memory_stats", logger);
    expect(result._meta).toEqual({
      [ERROR_META_KEY]: {
        code: "INTERNAL",
        message: "memory_stats could not complete: internal error; the server log has the details",
      },
    });
    expect(logger.errors[0]).toContain("x is undefined");
  });
});
