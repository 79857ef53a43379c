/**
 * Correcting a memory by hand: the fields given replace the stored ones; a changed text is
 * embedded again and a changed text or tag list re-indexed for keyword search. What the fields
 * said before stays in the memory's history; the audit log records that it was corrected.
 * A correction is not a new memory: it neither merges nor supersedes (storeSemantic does).
 */
import { invalidInput, notFound } from "../errors.js";
import type { Clock, Logger } from "../ports.js";
import { searchText } from "../recall/search-text.js";
import { UPDATABLE_FIELDS, UpdateInput } from "../schemas.js";
import type { JsonObject, JsonValue } from "../types.js";
import { validate } from "../validate.js";
import { embeddingText } from "./embedding-text.js";
import { storableConfidence } from "./fields.js";
import type { MemoryCorrection, MemoryRecords, StoredMemory } from "./ports.js";
import { findMemories } from "./read.js";

export interface MemoryUpdateDeps {
  memories: MemoryRecords;
  clock: Clock;
  logger: Logger;
  embed(texts: string[]): Promise<Float32Array[]>;
}

export type UpdateResult = StoredMemory & { changed: string[] };

type Field = (typeof UPDATABLE_FIELDS)[keyof typeof UPDATABLE_FIELDS][number];

const TEXT_FIELDS = new Set<Field>(["summary", "key_text", "value_text", "task_type"]);

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export async function updateMemory(deps: MemoryUpdateDeps, input: unknown): Promise<UpdateResult> {
  const { memory_id: id, reason, ...given } = validate(UpdateInput, input);
  const memory = (await findMemories(deps.memories, [id])).get(id);
  if (!memory) throw notFound("memory_id", id);
  const allowed: readonly string[] = UPDATABLE_FIELDS[memory.layer];
  for (const field of Object.keys(given)) {
    if (!allowed.includes(field)) {
      throw invalidInput(
        field,
        `is not a field of ${memory.layer} memories (${allowed.join(", ")})`,
      );
    }
  }
  const stored = memory as unknown as Record<Field, unknown>;
  const set: MemoryCorrection["set"] = {};
  const previous: JsonObject = {};
  for (const [field, value] of Object.entries(given) as [Field, unknown][]) {
    const next = field === "confidence" ? storableConfidence(value as number) : value;
    if (same(stored[field], next)) continue;
    (set as Record<string, unknown>)[field] = next;
    previous[field] = (stored[field] ?? null) as JsonValue;
  }
  const changed = Object.keys(set) as Field[];
  if (changed.length === 0) return { ...memory, changed: [] };
  const after = { ...memory, ...set } as StoredMemory;
  const textChanged = changed.some((field) => TEXT_FIELDS.has(field));
  const correction: MemoryCorrection = {
    layer: memory.layer,
    id,
    set,
    at: deps.clock.now(),
    reason: reason ?? "corrected on request",
    details: { fields: changed, previous },
  };
  if (textChanged || changed.includes("tags")) {
    correction.search_text =
      after.layer === "episodic"
        ? searchText([after.task_type, after.summary, ...after.tags])
        : searchText([after.key_text, after.value_text, ...after.tags]);
  }
  if (textChanged) {
    const text =
      after.layer === "episodic"
        ? embeddingText("episodic", after)
        : embeddingText("semantic", after);
    [correction.embedding] = await deps.embed([text]);
  }
  if (!(await deps.memories.update(correction))) throw notFound("memory_id", id);
  deps.logger.info("memory corrected", { id, layer: memory.layer, fields: changed });
  const [updated] = await deps.memories.getMany(memory.layer, [id]);
  if (!updated) throw notFound("memory_id", id);
  return { ...updated, changed };
}
