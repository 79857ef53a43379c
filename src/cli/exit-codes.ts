/** The one place where error codes become process exit codes. */
import type { ErrorCode } from "../core/errors.js";

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;

const EXIT_CODES: Record<ErrorCode, number> = {
  INVALID_INPUT: 2,
  CONFIG_INVALID: 2,
  NOT_FOUND: 3,
  DATA_DIR_IN_USE: 4,
  EMBEDDER_MISMATCH: 5,
  STORAGE_FAILED: 6,
  EMBEDDER_FAILED: 7,
  LLM_FAILED: 8,
  WORKING_MEMORY_UNAVAILABLE: 9,
  PERMISSION_DENIED: 10,
  EMBEDDER_UNAVAILABLE: 11,
  INTERNAL: EXIT_FAILURE,
};

export function exitCodeFor(code: ErrorCode): number {
  return EXIT_CODES[code] ?? EXIT_FAILURE;
}
