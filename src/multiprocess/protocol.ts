/**
 * The wire format between hindsight processes sharing one embedded data directory:
 * newline-delimited JSON over a local socket. The owner greets every connection, then answers
 * requests by id, in any order.
 */
import { StringDecoder } from "node:string_decoder";
import { ErrorCode, HindsightError, isHindsightError } from "../core/errors.js";
import type { MemoryOperation } from "../core/memory-api.js";

export const PROTOCOL_VERSION = 1;

export interface Hello {
  hindsight: number;
  pid: number;
}

export interface Request {
  id: number;
  op: MemoryOperation;
  args: unknown[];
}

export interface WireError {
  code: string;
  message: string;
  field?: string;
  details?: Record<string, unknown>;
}

export type Response =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: WireError };

/** Fields that are dates in results; JSON carries them as ISO strings. */
const DATE_FIELDS = new Set([
  "occurred_at",
  "recorded_at",
  "last_accessed_at",
  "created_at",
  "updated_at",
  "last_used_at",
  "valid_from",
  "valid_to",
]);

export function parseMessage(line: string): unknown {
  return JSON.parse(line, (key, value) =>
    DATE_FIELDS.has(key) && typeof value === "string" ? new Date(value) : value,
  );
}

export function encodeMessage(message: Hello | Request | Response): string {
  return `${JSON.stringify(message)}\n`;
}

export function toWireError(error: unknown): WireError {
  if (isHindsightError(error)) {
    return {
      code: error.code,
      message: error.message,
      ...(error.field === undefined ? {} : { field: error.field }),
      ...(error.details === undefined ? {} : { details: error.details }),
    };
  }
  return {
    code: ErrorCode.INTERNAL,
    message: "internal error in the process that owns the data directory",
  };
}

export function fromWireError(error: WireError): HindsightError {
  const code = (error.code in ErrorCode ? error.code : ErrorCode.INTERNAL) as ErrorCode;
  return new HindsightError(code, error.message, {
    ...(error.field === undefined ? {} : { field: error.field }),
    ...(error.details === undefined ? {} : { details: error.details }),
  });
}

/**
 * Splits a byte stream into lines, handing each complete one on. A socket delivers bytes in
 * chunks of any size, so a multi-byte UTF-8 character may be split between two of them: the
 * decoder keeps a character's leading bytes until the rest arrives (decoding each chunk on its
 * own turned both halves into U+FFFD, in acknowledged writes and in answers).
 */
export function lineReader(onLine: (line: string) => void): (chunk: Buffer) => void {
  const decoder = new StringDecoder("utf8");
  let buffer = "";
  return (chunk) => {
    buffer += decoder.write(chunk);
    for (let newline = buffer.indexOf("\n"); newline >= 0; newline = buffer.indexOf("\n")) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.trim()) onLine(line);
    }
  };
}
