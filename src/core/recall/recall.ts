/**
 * The recall pipeline: the query's periods and clauses, candidates from each layer, hybrid
 * ranking, and the winners' full rows — each recall counted as an access to what it returned.
 */
import { scriptCoverage } from "../../text/scripts.js";
import { invalidInput } from "../errors.js";
import { scopeFilter } from "../filters.js";
import type { MemoryRecords, StoredMemory } from "../memories/ports.js";
import type { Clock, Embedder, EmbedPurpose, Logger } from "../ports.js";
import { RecallInput, recallInputSchema } from "../schemas.js";
import type { MemoryLayer, RecalledMemory } from "../types.js";
import { validate } from "../validate.js";
import type { RecallStore } from "./ports.js";
import {
  interleave,
  type RankedCandidate,
  type RankingOptions,
  rankCandidates,
  type TimeWindow,
} from "./ranking.js";
import { namesSubject, queryClauses, queryTerms } from "./search-text.js";
import { findTimeExpressions, periodsMeant, stripTimeExpressions } from "./time/expressions.js";
import { parseInstant, parseTimeRange } from "./time/range.js";
import { asksWhen } from "./time/when.js";

export interface RecallDeps {
  recall: RecallStore;
  memories: MemoryRecords;
  /** Which scripts the model reads and its cosine scale; vectors come from `embed`. */
  embedder: Pick<Embedder, "scripts" | "similarity">;
  embed(texts: string[], purpose: EmbedPurpose): Promise<Float32Array[]>;
  clock: Clock;
  logger: Logger;
  ranking: RankingOptions;
  /** Nearest neighbours and keyword hits fetched per layer before ranking. */
  candidateLimit: number;
}

/** Library-only recall options, not part of any wire format. */
export interface RecallOptions {
  /** Allows top_k above the public limit of 20 (evaluations measure recall@25 and more). */
  maxTopK?: number;
  /**
   * Counts the recall as an access to each result (default). Evaluations turn it off: one
   * question's recall must not change how the next one ranks.
   */
  recordAccess?: boolean;
}

export interface RecallResponse {
  results: RecalledMemory[];
  /** Periods the query named ("last week", "上周三"), which boosted memories from then. */
  time_expressions?: { text: string; from: Date; to: Date; precision: "exact" | "approximate" }[];
}

/** The smallest period covering all the windows: where to look for memories from then. */
function spanOf(windows: readonly TimeWindow[]): TimeWindow {
  return {
    from: new Date(Math.min(...windows.map((window) => window.from.getTime()))),
    to: new Date(Math.max(...windows.map((window) => window.to.getTime()))),
  };
}

/**
 * The recall schema for a top_k ceiling, built once per ceiling: zod compiles a schema on its
 * first use, which cost evaluations ~1 ms per recall at p50 and 20 ms at p90 when a new one was
 * built for every call.
 */
const recallSchemas = new Map<number, ReturnType<typeof recallInputSchema>>();
function recallSchema(maxTopK: number): ReturnType<typeof recallInputSchema> {
  let schema = recallSchemas.get(maxTopK);
  if (!schema) {
    schema = recallInputSchema(maxTopK);
    recallSchemas.set(maxTopK, schema);
  }
  return schema;
}

export class Recall {
  private pendingAccess: Promise<void> = Promise.resolve();

  constructor(private readonly deps: RecallDeps) {}

  /**
   * Resolves once the access counts of earlier recalls are written: maintenance, which decays
   * by them, and closing wait for it.
   */
  settled(): Promise<void> {
    return this.pendingAccess;
  }

  /** Finds the memories most relevant to a query, best first, none below the score floor. */
  async recall(input: unknown, options: RecallOptions = {}): Promise<RecallResponse> {
    const { deps } = this;
    const schema = options.maxTopK === undefined ? RecallInput : recallSchema(options.maxTopK);
    const request = validate(schema, input);
    const range = request.time_range ? parseTimeRange(request.time_range) : {};
    if (typeof range === "string") throw invalidInput("time_range", range);
    const layers: MemoryLayer[] =
      request.memory_layer === "all" ? ["episodic", "semantic"] : [request.memory_layer];
    const now = deps.clock.now();
    // Periods named in the query boost memories from then, unless an explicit range filters.
    const found = request.time_range
      ? []
      : findTimeExpressions(
          request.query_text,
          request.query_time ? parseInstant(request.query_time)! : now,
          {
            ...(request.time_zone ? { timeZone: request.time_zone } : {}),
          },
        );
    const expressions = periodsMeant(found);
    const windows = expressions.map(({ from, to }) => ({ from, to }));
    // "yesterday" is not a word to look for in memories: search what the query is about.
    const about = stripTimeExpressions(request.query_text, found).trim() || request.query_text;
    // A query of several questions is several searches, each with its own vector and words,
    // whose rankings are interleaved: one vector for "where does my boss live? and when is
    // the meeting?" would favour memories about both over the answer to either.
    const clauses = queryClauses(about);
    const searches = clauses.length >= 2 ? clauses : [{ text: about, terms: queryTerms(about) }];
    const embeddings = await deps.embed(
      searches.map((search) => search.text),
      "query",
    );
    await this.pendingAccess;
    const filter = {
      ...(request.task_type_filter === undefined ? {} : { task_type: request.task_type_filter }),
      ...scopeFilter(request),
      ...range,
      include_archived: request.include_archived,
    };
    const rankings: RankedCandidate[][] = [];
    for (const [index, search] of searches.entries()) {
      const sets = await deps.recall.findCandidateSets(
        layers.map((layer) => ({
          layer,
          embedding: embeddings[index]!,
          keywords: search.terms,
          filter,
          limit: Math.max(deps.candidateLimit, request.top_k * 2),
          ...(windows.length > 0 ? { window: spanOf(windows) } : {}),
        })),
      );
      const ranking = {
        ...deps.ranking,
        floor: request.min_score ?? deps.ranking.floor,
        vectorCoverage: scriptCoverage(search.text, deps.embedder.scripts),
        similarity: deps.embedder.similarity,
        timeAlone: !namesSubject(search.text),
        asksWhen: asksWhen(search.text),
      };
      rankings.push(rankCandidates(sets, search.terms, now, request.top_k, ranking, windows));
    }
    const ranked = rankings.length === 1 ? rankings[0]! : interleave(rankings, request.top_k);
    const results = await this.fetchRecalled(ranked, now, options.recordAccess ?? true);
    if (!request.explain) for (const result of results) delete result.explanation;
    if (expressions.length === 0) return { results };
    const time_expressions = expressions.map(({ text, from, to, precision }) => ({
      text,
      from,
      to,
      precision,
    }));
    return { results, time_expressions };
  }

  /**
   * Fetches the winners' full rows and counts this recall as an access to each. The count is
   * written behind the response, off the recall's critical path; the next recall waits for it,
   * so this process always reads its own counts.
   */
  private async fetchRecalled(
    ranked: RankedCandidate[],
    now: Date,
    recordAccess: boolean,
  ): Promise<RecalledMemory[]> {
    const rows = new Map<string, StoredMemory>();
    const accessed: Promise<void>[] = [];
    for (const layer of ["episodic", "semantic"] as const) {
      const ids = ranked.filter((entry) => entry.layer === layer).map((entry) => entry.id);
      if (ids.length === 0) continue;
      for (const row of await this.deps.memories.getMany(layer, ids)) rows.set(row.id, row);
      if (recordAccess) accessed.push(this.deps.recall.recordAccess(layer, ids, now));
    }
    this.pendingAccess = Promise.all(accessed).then(
      () => undefined,
      (error: unknown) =>
        this.deps.logger.warn("could not record memory access", { error: String(error) }),
    );
    // A memory hard-deleted between ranking and fetching is simply not returned.
    return ranked.flatMap(({ id, score, signals, explanation }) => {
      const row = rows.get(id);
      if (!row) return [];
      if (!recordAccess) return [{ ...row, score, signals, explanation } as RecalledMemory];
      const access_count = row.access_count + 1;
      return [
        row.layer === "episodic"
          ? { ...row, access_count, last_accessed_at: now, score, signals, explanation }
          : { ...row, access_count, last_used_at: now, score, signals, explanation },
      ];
    });
  }
}
