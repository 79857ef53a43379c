/**
 * Configuration arrives as one typed, validated, frozen object. Only entry points (CLI,
 * server main) read the environment and flags to build it; library code never does.
 */
import { z } from "zod";
import { DEFAULT_RANKING } from "../core/ranking.js";

const HashEmbedderConfig = z.strictObject({ kind: z.literal("hash") });

const LocalEmbedderConfig = z.strictObject({
  kind: z.literal("local"),
  /** A local model directory (config.json, tokenizer.json, onnx/model.onnx). */
  modelDir: z.string().min(1).optional(),
  /** A hub model name, used when no directory is given and remote loading is allowed. */
  model: z.string().min(1).optional(),
  allowRemote: z.boolean().default(false),
});

const OpenAIEmbedderConfig = z.strictObject({
  kind: z.literal("openai"),
  baseUrl: z.url().default("https://api.openai.com/v1"),
  apiKey: z.string().min(1).optional(),
  model: z.string().min(1).default("text-embedding-3-small"),
  dimensions: z.number().int().positive().optional(),
  timeoutMs: z.number().int().positive().default(30_000),
  maxRetries: z.number().int().min(0).max(10).default(3),
  batchSize: z.number().int().positive().max(2048).default(64),
});

export const EmbedderConfig = z.discriminatedUnion("kind", [
  HashEmbedderConfig,
  LocalEmbedderConfig,
  OpenAIEmbedderConfig,
]);
export type EmbedderConfig = z.infer<typeof EmbedderConfig>;

const Weight = z.number().min(0).max(1);

/** Working memory: Redis when a URL is given, else the memory store's database. */
export const WorkingConfig = z.strictObject({
  redisUrl: z
    .string()
    .regex(/^rediss?:\/\/.+/u, "must be a redis:// or rediss:// URL")
    .optional(),
  budgetTokens: z.number().int().min(500).max(200_000).default(4000),
  /** A session expires this long after its last write. */
  ttlSeconds: z
    .number()
    .int()
    .min(1)
    .default(24 * 3600),
  keyPrefix: z.string().default("hindsight:working:"),
  /** How long a call waits for Redis to connect or answer before WORKING_MEMORY_UNAVAILABLE. */
  timeoutMs: z.number().int().positive().default(2000),
});
export type WorkingConfig = z.output<typeof WorkingConfig>;

export const HindsightConfig = z.strictObject({
  /** PostgreSQL connection string; when absent, the embedded store in `dataDir` is used. */
  databaseUrl: z.string().min(1).optional(),
  /** Embedded store directory, or `memory://` for a throw-away database. */
  dataDir: z.string().min(1),
  /** How long a second process waits for the embedded directory's owner to exit. */
  lockTimeoutMs: z.number().int().min(0).default(10_000),
  embedder: EmbedderConfig.default({ kind: "hash" }),
  working: WorkingConfig.default({
    budgetTokens: 4000,
    ttlSeconds: 24 * 3600,
    keyPrefix: "hindsight:working:",
    timeoutMs: 2000,
  }),
  recall: z
    .strictObject({
      floor: z.number().min(0).max(1).default(DEFAULT_RANKING.floor),
      candidateLimit: z.number().int().min(5).max(1000).default(30),
      freshnessHalfLifeDays: z.number().positive().default(DEFAULT_RANKING.freshnessHalfLifeDays),
      fusion: z.enum(["weighted", "rrf"]).default(DEFAULT_RANKING.fusion),
      timeWeight: Weight.default(DEFAULT_RANKING.timeWeight),
      rrfK: z.number().positive().default(DEFAULT_RANKING.rrfK),
      outcomeWeights: z
        .strictObject({
          success: Weight.default(DEFAULT_RANKING.outcomeWeights.success),
          failure: Weight.default(DEFAULT_RANKING.outcomeWeights.failure),
          partial: Weight.default(DEFAULT_RANKING.outcomeWeights.partial),
        })
        .default(DEFAULT_RANKING.outcomeWeights),
      bm25: z
        .strictObject({
          k1: z.number().min(0).max(10).default(DEFAULT_RANKING.bm25.k1),
          b: z.number().min(0).max(1).default(DEFAULT_RANKING.bm25.b),
        })
        .default(DEFAULT_RANKING.bm25),
      weights: z
        .strictObject({
          vector: Weight.default(DEFAULT_RANKING.weights.vector),
          keyword: Weight.default(DEFAULT_RANKING.weights.keyword),
          freshness: Weight.default(DEFAULT_RANKING.weights.freshness),
          frequency: Weight.default(DEFAULT_RANKING.weights.frequency),
        })
        .default(DEFAULT_RANKING.weights),
    })
    .default({
      floor: DEFAULT_RANKING.floor,
      candidateLimit: 30,
      freshnessHalfLifeDays: DEFAULT_RANKING.freshnessHalfLifeDays,
      bm25: DEFAULT_RANKING.bm25,
      fusion: DEFAULT_RANKING.fusion,
      timeWeight: DEFAULT_RANKING.timeWeight,
      rrfK: DEFAULT_RANKING.rrfK,
      outcomeWeights: DEFAULT_RANKING.outcomeWeights,
      weights: DEFAULT_RANKING.weights,
    }),
});

export type HindsightConfig = z.output<typeof HindsightConfig>;
export type HindsightConfigInput = z.input<typeof HindsightConfig>;
