/**
 * Errors with stable codes. Transports map `code` to HTTP status, MCP results and CLI exit
 * codes, each in exactly one place; callers discriminate by `code`, never by `instanceof`.
 */
export const ErrorCode = {
  INVALID_INPUT: "INVALID_INPUT",
  NOT_FOUND: "NOT_FOUND",
  CONFIG_INVALID: "CONFIG_INVALID",
  STORAGE_FAILED: "STORAGE_FAILED",
  EMBEDDER_FAILED: "EMBEDDER_FAILED",
  EMBEDDER_MISMATCH: "EMBEDDER_MISMATCH",
  DATA_DIR_IN_USE: "DATA_DIR_IN_USE",
  /** The language model failed or kept answering with output that does not fit the schema. */
  LLM_FAILED: "LLM_FAILED",
  /** Working memory's store (Redis) cannot be reached. */
  WORKING_MEMORY_UNAVAILABLE: "WORKING_MEMORY_UNAVAILABLE",
  /** Shared memory refused the write: the agent is not in the group, or the source is blocked. */
  PERMISSION_DENIED: "PERMISSION_DENIED",
  /** The embedding model is not installed (the default model has to be fetched once). */
  EMBEDDER_UNAVAILABLE: "EMBEDDER_UNAVAILABLE",
  INTERNAL: "INTERNAL",
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface HindsightErrorOptions {
  /** The input field at fault, dotted (`metadata.owner`), for INVALID_INPUT and NOT_FOUND. */
  field?: string;
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class HindsightError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: HindsightErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "HindsightError";
    this.code = code;
    this.field = options.field;
    this.details = options.details;
  }

  toJSON(): {
    code: ErrorCode;
    message: string;
    field?: string;
    details?: Record<string, unknown>;
  } {
    return {
      code: this.code,
      message: this.message,
      ...(this.field === undefined ? {} : { field: this.field }),
      ...(this.details === undefined ? {} : { details: this.details }),
    };
  }
}

export function isHindsightError(error: unknown): error is HindsightError {
  return (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    typeof (error as { code: unknown }).code === "string" &&
    (error as { code: string }).code in ErrorCode &&
    error instanceof Error
  );
}

export function invalidInput(field: string, message: string): HindsightError {
  return new HindsightError(ErrorCode.INVALID_INPUT, `${field}: ${message}`, { field });
}

export function notFound(field: string, id: string): HindsightError {
  return new HindsightError(ErrorCode.NOT_FOUND, `no memory with id ${id}`, {
    field,
    details: { id },
  });
}

/** Wraps an unknown failure of our own machinery; never blames the caller's input. */
/**
 * What a remote caller is told about a failure on the server's side: its code and this, never
 * the cause's own text (`ECONNREFUSED 127.0.0.1:5432`, `too many clients already`, a file
 * path). The details go to the server's log. MCP and HTTP both use it.
 */
const PUBLIC_REASONS: Partial<Record<ErrorCode, string>> = {
  STORAGE_FAILED: "the memory store failed; retrying later may help",
  EMBEDDER_FAILED: "the embedding service failed; retrying later may help",
  LLM_FAILED: "the language model failed; retrying later may help",
  WORKING_MEMORY_UNAVAILABLE: "working memory (Redis) is unreachable; retrying later may help",
  EMBEDDER_MISMATCH:
    "the memory store was built with another embedder; its operator can re-embed it offline with `hindsight reembed`",
  EMBEDDER_UNAVAILABLE: "the memory server's embedding model is not installed",
  DATA_DIR_IN_USE: "the memory store is in use by another process",
  CONFIG_INVALID: "the memory server is misconfigured",
};

export function publicReason(code: ErrorCode | string): string {
  return PUBLIC_REASONS[code as ErrorCode] ?? "internal error; the server log has the details";
}

export function wrapError(code: ErrorCode, context: string, cause: unknown): HindsightError {
  if (isHindsightError(cause)) return cause;
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new HindsightError(code, `${context}: ${reason}`, { cause });
}
