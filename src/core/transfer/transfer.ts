/**
 * Moving a store: `exportMemories` reads it page by page in the export format (format.ts);
 * `importMemories` writes a batch of exported records into any store — the same ids, so a
 * second import changes nothing; vectors made by another embedder (or left out of the file)
 * are computed again with this store's.
 */
import { z } from "zod";
import type { Turns } from "../concurrency.js";
import { decodeCursor, encodeCursor } from "../cursor.js";
import { ErrorCode, HindsightError, invalidInput } from "../errors.js";
import { embeddingText } from "../memories/embedding-text.js";
import type { MemoryRecords } from "../memories/ports.js";
import { findMemories } from "../memories/read.js";
import type { Embedder } from "../ports.js";
import { currentSearchText } from "../recall/search-text.js";
import { LAYERS, type MemoryLayer } from "../types.js";
import { validate } from "../validate.js";
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportedGroup,
  type ExportedMemory,
  type ExportedTrust,
  type ExportHeader,
  type ExportRecord,
  recordSchema,
} from "./format.js";
import type { ExportPosition, ImportCounts, ImportedMemory, TransferStore } from "./ports.js";

export const TRANSFER_LIMITS = { exportPage: 1000, importBatch: 1000 } as const;

export const ExportInput = z.strictObject({
  cursor: z
    .string()
    .max(200)
    .optional()
    .describe("The previous page's next_cursor, for the page after it."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(TRANSFER_LIMITS.exportPage)
    .default(500)
    .describe(`Memories per page, 1..${TRANSFER_LIMITS.exportPage}.`),
  with_vectors: z
    .boolean()
    .default(false)
    .describe("Include each memory's vector (otherwise the importing store embeds it again)."),
});
export type ExportInput = z.input<typeof ExportInput>;

export const ImportInput = z.strictObject({
  records: z
    .array(z.unknown())
    .max(TRANSFER_LIMITS.importBatch)
    .describe("Records of an export (its lines after the header), checked one by one."),
  embedder: z
    .strictObject({ id: z.string(), dimensions: z.number().int().positive() })
    .optional()
    .describe("The header's embedder: vectors made by another one are computed again."),
});
export type ImportInput = z.input<typeof ImportInput>;

export interface ExportPage {
  header: ExportHeader;
  /** Memories, episodic first; the first page also carries the groups and trust settings. */
  records: ExportRecord[];
  next_cursor: string | null;
}

export type ImportResult = ImportCounts & { embedded: number };

export interface TransferDeps {
  transfer: TransferStore;
  memories: MemoryRecords;
  embedder: Pick<Embedder, "id" | "dimensions">;
  embed(texts: string[]): Promise<Float32Array[]>;
  now(): Date;
  /**
   * The order imports write in: the order they were called. A batch may be checked and
   * embedded while the one before it is written, but never written beside it — a link
   * between two batches is restored only when one side is already committed.
   */
  writes: Turns;
}

const UUID = z.uuid();

function encodePosition(position: ExportPosition): string {
  return encodeCursor([position.layer, position.id]);
}

function decodePosition(cursor: string): ExportPosition {
  const [layer, id] = decodeCursor(
    cursor,
    [(part) => LAYERS.includes(part as MemoryLayer), (part) => UUID.safeParse(part).success],
    "export",
  );
  return { layer: layer as MemoryLayer, id: id! };
}

export async function exportMemories(deps: TransferDeps, input: unknown): Promise<ExportPage> {
  const request = validate(ExportInput, input);
  const after = request.cursor === undefined ? undefined : decodePosition(request.cursor);
  const page = await deps.transfer.exportMemories(after, request.limit, request.with_vectors);
  const sharing = after === undefined ? await deps.transfer.exportSharing() : undefined;
  return {
    header: {
      kind: "header",
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exported_at: deps.now().toISOString(),
      embedder: { id: deps.embedder.id, dimensions: deps.embedder.dimensions },
      with_vectors: request.with_vectors,
    },
    records: [...(sharing ? [...sharing.groups, ...sharing.trust] : []), ...page.memories],
    next_cursor: page.next ? encodePosition(page.next) : null,
  };
}

/**
 * A record checked with its kind's schema; an error names the record and the field, e.g.
 * `records[3].outcome` (the CLI names the file's line instead).
 */
export function parseRecord(value: unknown, where: string): ExportRecord {
  const schema = recordSchema(value);
  if (!(schema instanceof z.ZodType)) {
    throw invalidInput(schema.field ? `${where}.${schema.field}` : where, schema.message);
  }
  try {
    return validate(schema, value);
  } catch (error) {
    if (error instanceof HindsightError && error.code === ErrorCode.INVALID_INPUT) {
      const field = `${where}.${error.field ?? "input"}`;
      throw new HindsightError(ErrorCode.INVALID_INPUT, `${where}.${error.message}`, { field });
    }
    throw error;
  }
}

/**
 * Writes a batch of exported records. Batches asked for one after another are written in that
 * order, one at a time (`TransferDeps.writes`), but each is checked and embedded as soon as it
 * is asked for: with the next batch asked for before this one returns (`importBatches`), the
 * model embeds it while the store writes this one.
 */
export async function importMemories(deps: TransferDeps, input: unknown): Promise<ImportResult> {
  // Taken before anything is awaited, so the turn is the caller's order.
  const turn = deps.writes.take();
  try {
    const prepared = await prepareImport(deps, input);
    await turn.ready;
    const counts = await deps.transfer.importRecords(
      prepared.imported,
      prepared.groups,
      prepared.trust,
      prepared.links,
    );
    return {
      ...counts,
      skipped: counts.skipped + prepared.alreadyStored,
      embedded: prepared.embedded,
    };
  } finally {
    turn.done();
  }
}

/** The records checked, and the memories not stored yet with their vectors. */
async function prepareImport(deps: TransferDeps, input: unknown) {
  const request = validate(ImportInput, input);
  const records = request.records.map((record, index) => parseRecord(record, `records[${index}]`));
  const memories = records.filter((record): record is ExportedMemory => record.kind === "memory");
  const groups = records.filter((record): record is ExportedGroup => record.kind === "group");
  const trust = records.filter((record): record is ExportedTrust => record.kind === "trust");
  const sameEmbedder =
    request.embedder?.id === deps.embedder.id &&
    request.embedder.dimensions === deps.embedder.dimensions;
  const reuse = (memory: ExportedMemory) =>
    sameEmbedder && memory.embedding?.length === deps.embedder.dimensions;
  // Memories stored already are skipped by the store; embedding them again would be wasted.
  const stored = await findMemories(
    deps.memories,
    memories.map((memory) => memory.id),
  );
  const missing = memories.filter((memory) => !reuse(memory) && !stored.has(memory.id));
  const vectors = await deps.embed(
    missing.map((memory) =>
      memory.layer === "episodic"
        ? embeddingText("episodic", memory)
        : embeddingText("semantic", memory),
    ),
  );
  const computed = new Map(missing.map((memory, index) => [memory, [...vectors[index]!]]));
  const imported: ImportedMemory[] = memories
    .filter((memory) => !stored.has(memory.id))
    .map((memory) => ({
      ...memory,
      // An export of an older version holds the search text its tokenizer wrote.
      search_text: currentSearchText(
        memory.search_text,
        memory.layer === "episodic" ? memory.summary : `${memory.key_text} ${memory.value_text}`,
      ),
      embedding: computed.get(memory) ?? memory.embedding!,
    }));
  // Stored knowledge too: a run cut short may have left it without the links a later batch
  // could make (its episodes arrive after it), and running the import again makes them.
  const links = memories.flatMap((memory) =>
    memory.layer === "semantic"
      ? [
          {
            id: memory.id,
            sources: memory.sources,
            superseded_by: memory.superseded_by,
            supersedes: memory.supersedes,
          },
        ]
      : [],
  );
  return { imported, groups, trust, links, alreadyStored: stored.size, embedded: missing.length };
}

/**
 * Imports batches in order with the next one already asked for, so that the store writes one
 * batch while the model embeds the next (`importMemories` keeps the writes in order). At the
 * first failure the batch in flight is let finish, then the error is thrown: batches after
 * it are not asked for. The batch in flight may be written after the failed one was not; an
 * import run again skips what is stored and makes the links that were missing (see
 * `TransferStore.importRecords`).
 */
export async function importBatches(
  memory: { importMemories(input: unknown): Promise<ImportResult> },
  batches: Iterable<ImportInput>,
  onBatch: (result: ImportResult, batch: ImportInput) => void = () => {},
): Promise<ImportResult> {
  const total: ImportResult = { imported: 0, skipped: 0, embedded: 0, groups: 0, trust: 0 };
  const add = (result: ImportResult, batch: ImportInput) => {
    for (const key of Object.keys(total) as (keyof ImportResult)[]) total[key] += result[key];
    onBatch(result, batch);
  };
  let inFlight: { batch: ImportInput; result: Promise<ImportResult> } | undefined;
  for (const batch of batches) {
    const next = { batch, result: memory.importMemories(batch) };
    // Awaited below (or settled on the way out): never an unhandled rejection meanwhile.
    next.result.catch(() => undefined);
    if (inFlight) {
      try {
        add(await inFlight.result, inFlight.batch);
      } catch (error) {
        await next.result.catch(() => undefined);
        throw error;
      }
    }
    inFlight = next;
  }
  if (inFlight) add(await inFlight.result, inFlight.batch);
  return total;
}
