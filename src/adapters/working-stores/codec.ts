/** How working-memory items and summaries travel through stores that keep JSON text. */
import type { WorkingItem, WorkingSummary } from "../../core/working/types.js";

export interface StoredItem {
  id: string;
  kind: WorkingItem["kind"];
  role: WorkingItem["role"];
  content: string;
  created_at: string;
}

export function encodeItem(item: Omit<WorkingItem, "seq">): string {
  const stored: StoredItem = {
    id: item.id,
    kind: item.kind,
    role: item.role,
    content: item.content,
    created_at: item.created_at.toISOString(),
  };
  return JSON.stringify(stored);
}

export function decodeItem(seq: number, stored: StoredItem): WorkingItem {
  return { seq, ...stored, created_at: new Date(stored.created_at) };
}

export function encodeSummary(summary: WorkingSummary): string {
  return JSON.stringify({ ...summary, updated_at: summary.updated_at.toISOString() });
}

export function decodeSummary(value: unknown): WorkingSummary | null {
  if (value === null || value === undefined) return null;
  const raw = (typeof value === "string" ? JSON.parse(value) : value) as Omit<
    WorkingSummary,
    "updated_at"
  > & { updated_at: string };
  return { ...raw, updated_at: new Date(raw.updated_at) };
}
