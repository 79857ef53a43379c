/**
 * A labelled regression set of the user's own: memories with keys, and queries naming the keys
 * they should find. All memories go into one bank; every query is recalled against it.
 *
 * ```json
 * { "now": "2025-06-30T12:00:00Z",
 *   "memories": [{ "key": "m1", "layer": "episodic", "task_type": "deploy", "summary": "…",
 *                  "outcome": "failure" }],
 *   "queries": [{ "query_text": "why did the deploy fail?", "expected": ["m1"] }] }
 * ```
 */
import { z } from "zod";
import { fixedClock } from "../adapters/clock.js";
import { parseInstant } from "../core/recall/time/range.js";
import {
  Instant,
  LIMITS,
  recallInputSchema,
  StoreEpisodicInput,
  StoreSemanticInput,
} from "../core/schemas.js";
import { BankPool, type EvalRuntime } from "./banks.js";
import { parseData, readJson } from "./data.js";
import { MeanAccumulator, rankingScores } from "./metrics.js";
import { noProgress, type Progress } from "./progress.js";

const Key = z.string().trim().min(1, "must not be empty").max(200);

const EpisodicItem = StoreEpisodicInput.safeExtend({
  key: Key.describe("Name of the memory, used in the queries' expected lists."),
  layer: z.literal("episodic"),
});

const SemanticItem = StoreSemanticInput.extend({
  key: Key.describe("Name of the memory, used in the queries' expected lists."),
  layer: z.literal("semantic"),
});

const MemoryItem = z.discriminatedUnion("layer", [EpisodicItem, SemanticItem]);

/** Every recall field except top_k, which the evaluation sets; plus the expected keys. */
const QueryItem = recallInputSchema(LIMITS.topK)
  .omit({ top_k: true })
  .extend({
    expected: z.array(Key).min(1, "must name at least one memory key"),
    note: z.string().optional().describe("What the query checks; for people, not used."),
  });

export const RegressionSet = z
  .strictObject({
    description: z.string().optional(),
    now: Instant.optional().describe(
      "The time recall runs at (freshness is measured from it); defaults to the clock.",
    ),
    memories: z.array(MemoryItem).min(1, "must hold at least one memory"),
    queries: z.array(QueryItem).min(1, "must hold at least one query"),
  })
  .superRefine((set, ctx) => {
    const keys = new Set<string>();
    set.memories.forEach((memory, index) => {
      if (keys.has(memory.key)) {
        ctx.addIssue({
          code: "custom",
          path: ["memories", index, "key"],
          message: `duplicate key '${memory.key}'`,
        });
      }
      keys.add(memory.key);
    });
    set.queries.forEach((query, index) => {
      query.expected.forEach((key, position) => {
        if (!keys.has(key)) {
          ctx.addIssue({
            code: "custom",
            path: ["queries", index, "expected", position],
            message: `no memory has the key '${key}'`,
          });
        }
      });
    });
  });

export type RegressionSet = z.output<typeof RegressionSet>;

export interface LoadedSet {
  /** The file's memories without key and layer, as the store takes them. */
  memories: { key: string; layer: "episodic" | "semantic"; input: Record<string, unknown> }[];
  queries: { recall: Record<string, unknown>; expected: string[]; query_text: string }[];
  now?: Date;
}

/** Validates a regression set; errors name the field (`queries[3].expected[1]`). */
export function parseRegressionSet(value: unknown, file: string): LoadedSet {
  const parsed = parseData(RegressionSet, value, file);
  // The raw items go to the service, which validates and applies defaults as for any caller.
  const raw = value as { memories: Record<string, unknown>[]; queries: Record<string, unknown>[] };
  return {
    memories: parsed.memories.map((memory, index) => {
      const { key: _key, layer: _layer, ...input } = raw.memories[index]!;
      return { key: memory.key, layer: memory.layer, input };
    }),
    queries: parsed.queries.map((query, index) => {
      const { expected: _expected, note: _note, ...recall } = raw.queries[index]!;
      return { recall, expected: query.expected, query_text: query.query_text };
    }),
    ...(parsed.now ? { now: parseInstant(parsed.now)! } : {}),
  };
}

export async function loadRegressionSet(file: string): Promise<LoadedSet> {
  return parseRegressionSet(await readJson(file), file);
}

export interface SetFailure {
  query_text: string;
  expected: string[];
  /** Keys of the top 5 results, best first. */
  got: string[];
}

export interface SetReport {
  overall: { "R@1": number; "R@5": number; MRR: number };
  queries: number;
  failures: SetFailure[];
}

/** Results asked for per query: every memory, so MRR sees every rank, up to this many. */
const MAX_RANKED = 100;

export async function runRegressionSet(
  set: LoadedSet,
  options: { runtime: EvalRuntime; progress?: (total: number) => Progress },
): Promise<SetReport> {
  const progress = options.progress?.(set.memories.length + set.queries.length) ?? noProgress;
  const pool = new BankPool(options.runtime, {
    freshBanks: true,
    ...(set.now ? { clock: fixedClock(set.now) } : {}),
  });
  const overall = new MeanAccumulator();
  const failures: SetFailure[] = [];
  try {
    const bank = await pool.acquire(set.memories.length);
    try {
      const keys = new Map<string, string>();
      const episodic = set.memories.filter((memory) => memory.layer === "episodic");
      if (episodic.length > 0) {
        const ids = await bank.storeEpisodic(episodic.map((memory) => memory.input));
        for (const [index, id] of ids.entries()) keys.set(id, episodic[index]!.key);
        progress.tick(episodic.length);
      }
      for (const memory of set.memories.filter((item) => item.layer === "semantic")) {
        keys.set(await bank.storeSemantic(memory.input), memory.key);
        progress.tick();
      }
      const topK = Math.max(5, Math.min(set.memories.length, MAX_RANKED));
      for (const query of set.queries) {
        const { results } = await bank.service.recall(
          { min_score: 0, ...query.recall, top_k: topK },
          { maxTopK: topK, recordAccess: false },
        );
        const ranked = results.map((result) => keys.get(result.id) ?? "");
        const scores = rankingScores(ranked, query.expected);
        overall.add(scores);
        if (scores["R@5"] < 1) {
          failures.push({
            query_text: query.query_text,
            expected: query.expected,
            got: ranked.slice(0, 5),
          });
        }
        progress.tick();
      }
    } finally {
      await pool.release(bank);
    }
  } finally {
    await pool.close();
    progress.done();
  }
  const means = overall.means(["R@1", "R@5", "MRR"]);
  return {
    overall: { "R@1": means["R@1"]!, "R@5": means["R@5"]!, MRR: means.MRR! },
    queries: overall.questions,
    failures,
  };
}
