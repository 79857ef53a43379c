/**
 * Looking at what is stored: one memory by id with its provenance, and listings by filter,
 * newest first, page by page. Neither counts as an access: inspecting a store must not change
 * how it ranks or decays.
 */
import { z } from "zod";
import { decodeCursor, encodeCursor } from "../cursor.js";
import { invalidInput, notFound } from "../errors.js";
import { scopeFilter } from "../filters.js";
import type { LifecycleStore } from "../lifecycle/ports.js";
import { parseTimeRange } from "../recall/time/range.js";
import { ListInput, MemoryIdInput } from "../schemas.js";
import { LAYERS, type MemoryLayer } from "../types.js";
import { validate } from "../validate.js";
import type { ListPosition, MemoryRecords, StoredMemory } from "./ports.js";
import { findMemories } from "./read.js";

export interface Provenance {
  sources: string[];
  consolidated_into: string[];
  supersedes: string[];
  superseded_by: string | null;
}

export type MemoryWithProvenance = StoredMemory & { provenance: Provenance };

export interface MemoryList {
  memories: StoredMemory[];
  total: number;
  next_cursor: string | null;
}

export async function getMemory(
  deps: { memories: MemoryRecords; lifecycle: Pick<LifecycleStore, "history"> },
  input: unknown,
): Promise<MemoryWithProvenance> {
  const { memory_id: id } = validate(MemoryIdInput, input);
  const memory = (await findMemories(deps.memories, [id])).get(id);
  const history = memory && (await deps.lifecycle.history(id));
  // Deleted between the two reads: as unknown as if it had never been.
  if (!memory || !history) throw notFound("memory_id", id);
  const { sources, consolidated_into, supersedes, superseded_by } = history;
  return { ...memory, provenance: { sources, consolidated_into, supersedes, superseded_by } };
}

export async function listMemories(records: MemoryRecords, input: unknown): Promise<MemoryList> {
  const request = validate(ListInput, input);
  const range = request.time_range ? parseTimeRange(request.time_range) : {};
  if (typeof range === "string") throw invalidInput("time_range", range);
  const layers: MemoryLayer[] =
    request.memory_layer === "all" ? ["episodic", "semantic"] : [request.memory_layer];
  const after = request.cursor === undefined ? undefined : decodePosition(request.cursor);
  const page = await records.list({
    layers,
    filter: {
      status: request.status,
      ...(request.task_type === undefined ? {} : { task_type: request.task_type }),
      ...scopeFilter(request),
      ...range,
    },
    limit: request.limit,
    ...(after ? { after } : {}),
  });
  return {
    memories: page.memories,
    total: page.total,
    next_cursor: page.next ? encodePosition(page.next) : null,
  };
}

const UUID = z.uuid();

function encodePosition(position: ListPosition): string {
  return encodeCursor([position.at.toISOString(), position.layer, position.id]);
}

function decodePosition(cursor: string): ListPosition {
  const [at, layer, id] = decodeCursor(
    cursor,
    [
      (part) => !Number.isNaN(new Date(part).getTime()),
      (part) => LAYERS.includes(part as MemoryLayer),
      (part) => UUID.safeParse(part).success,
    ],
    "listing",
  );
  return { at: new Date(at!), layer: layer as MemoryLayer, id: id! };
}
