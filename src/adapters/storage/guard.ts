import { ErrorCode, wrapError } from "../../core/errors.js";

/**
 * Runs a storage call; a driver's failure becomes STORAGE_FAILED naming what was being done.
 * Our own errors (not found, embedder mismatch) pass through unchanged.
 */
export async function guard<T>(context: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw wrapError(ErrorCode.STORAGE_FAILED, context, error);
  }
}
