/**
 * The audit log: who-did-what for the operations that destroy or rewrite memories, and for
 * those that decide who may read shared memory (grants, trust, reviews). Entries carry ids,
 * reasons and structural details, never memory content, so they can outlive a hard delete
 * without keeping what was deleted.
 */
import type { MemoryLayer } from "./types.js";

export const AUDITED_OPERATIONS = [
  "forget",
  "delete",
  "merge",
  "supersede",
  "restore",
  // Shared memory: a quarantined memory reviewed, a group's members changed, a source's trust set.
  "confirm",
  "reject",
  "grant",
  "revoke",
  "trust",
  // A memory corrected by hand (update).
  "update",
] as const;
export type AuditedOperation = (typeof AUDITED_OPERATIONS)[number];

export interface AuditEntry {
  seq: number;
  at: Date;
  operation: AuditedOperation;
  /** The memory concerned; null for grants, revocations and trust changes. */
  memory_id: string | null;
  layer: MemoryLayer | null;
  /** The group (grant, revoke) or source (trust) concerned; null for memory operations. */
  target: string | null;
  reason: string;
  details: Record<string, unknown>;
}

export type NewAuditEntry = Omit<AuditEntry, "seq" | "target"> & { target?: string | null };

export interface AuditQuery {
  since?: Date;
  until?: Date;
  operation?: AuditedOperation;
  memory_id?: string;
  /** Entries about this group or source only. */
  target?: string;
  limit: number;
}

/** Storage's audit log; entries are written by the operations they record, in their transaction. */
export interface AuditLog {
  /** Entries matching the query, newest first. */
  list(query: AuditQuery): Promise<AuditEntry[]>;
}

/** Detail fields that hold memory text; the audit log keeps everything else. */
const CONTENT_FIELDS = new Set(["previous", "incoming", "key_text", "value_text", "summary"]);

export function withoutContent(details: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(details).filter(([key]) => !CONTENT_FIELDS.has(key)));
}
