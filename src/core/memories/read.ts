/** Reading memories by id when the caller does not know which layer holds each. */
import { notFound } from "../errors.js";
import type { MemoryRecords, StoredMemory } from "./ports.js";

/** The memories that exist among `ids`, by id; a layer is asked only for ids not yet found. */
export async function findMemories(
  records: MemoryRecords,
  ids: readonly string[],
): Promise<Map<string, StoredMemory>> {
  const found = new Map<string, StoredMemory>();
  const unique = [...new Set(ids)];
  for (const layer of ["episodic", "semantic"] as const) {
    const wanted = unique.filter((id) => !found.has(id));
    if (wanted.length === 0) break;
    for (const memory of await records.getMany(layer, wanted)) found.set(memory.id, memory);
  }
  return found;
}

/** Memories of either layer in the order asked, once each; an unknown id is NOT_FOUND. */
export async function memoriesById(
  records: MemoryRecords,
  ids: readonly string[],
  field: string,
): Promise<StoredMemory[]> {
  const found = await findMemories(records, ids);
  const unique = [...new Set(ids)];
  const missing = unique.find((id) => !found.has(id));
  if (missing) throw notFound(field, missing);
  return unique.map((id) => found.get(id)!);
}
