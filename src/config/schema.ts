/**
 * Configuration arrives as one typed, validated, frozen object. Only entry points (CLI,
 * server main) read the environment and flags to build it; library code never does.
 */
import { z } from "zod";
import { DEFAULT_LIFECYCLE as L } from "../core/lifecycle/settings.js";
import { DEFAULT_BREAKER } from "../core/llm/breaker.js";
import { DEFAULT_RANKING } from "../core/recall/ranking.js";
import { DEFAULT_SHARING } from "../core/sharing/sharing.js";
import { TRUST_LEVELS } from "../core/sharing/types.js";

const HashEmbedderConfig = z.strictObject({ kind: z.literal("hash") });

const LocalEmbedderConfig = z.strictObject({
  kind: z.literal("local"),
  /**
   * A local model directory (config.json, tokenizer.json, onnx/model.onnx). Absent (and no
   * `model`): the default model, multilingual-e5-small, where `hindsight fetch-model` put it.
   */
  modelDir: z.string().min(1).optional(),
  /**
   * Where the default model is looked for (and `hindsight fetch-model` puts it); absent: the
   * package's `.cache/models`, then `~/.cache/hindsight/models`.
   */
  modelsDir: z.string().min(1).optional(),
  /** A hub model name, used when no directory is given and remote loading is allowed. */
  model: z.string().min(1).optional(),
  allowRemote: z.boolean().default(false),
  /**
   * Unicode scripts the model represents ("Latin", "Han", …) or "all"; absent: from the model
   * directory's hindsight-model.json or the known models (see adapters/embedders/local).
   */
  scripts: z.union([z.literal("all"), z.array(z.string().min(1)).min(1)]).optional(),
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

const OPENAI_API_BASE = "https://api.openai.com/v1";

/** No language model: every feature that could use one takes its deterministic fallback. */
const NoLlmConfig = z.strictObject({ provider: z.literal("none") });

/** Any OpenAI-compatible chat endpoint (OpenAI, DeepSeek, Qwen, Ollama, vLLM, LM Studio). */
const OpenAILlmConfig = z
  .strictObject({
    provider: z.literal("openai"),
    baseUrl: z.url().default(OPENAI_API_BASE),
    apiKey: z.string().min(1).optional(),
    /** The main model (consolidation, merging); required except on OpenAI itself. */
    model: z.string().min(1).optional(),
    /** The cheaper model for summaries; defaults to the main model. */
    summaryModel: z.string().min(1).optional(),
    timeoutMs: z.number().int().positive().default(60_000),
    maxRetries: z.number().int().min(0).max(10).default(3),
    /**
     * The circuit breaker (core/llm/breaker): after `failures` failed tasks in a row (0: never)
     * the model is not called for `cooldownMs`, doubled after each failed trial up to 15 min.
     * Absent: those defaults.
     */
    breaker: z
      .strictObject({
        failures: z.number().int().min(0).max(1000).default(DEFAULT_BREAKER.failures),
        cooldownMs: z.number().int().positive().max(86_400_000).default(DEFAULT_BREAKER.cooldownMs),
      })
      .optional(),
  })
  .superRefine((value, ctx) => {
    // A malformed URL is reported by its own check; refinements still run after it.
    if (!URL.canParse(value.baseUrl)) return;
    const onOpenAI = new URL(value.baseUrl).host === new URL(OPENAI_API_BASE).host;
    if (!onOpenAI && value.model === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["model"],
        message: `a model name is required for ${value.baseUrl} (HINDSIGHT_LLM_MODEL)`,
      });
    }
    if (onOpenAI && value.apiKey === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["apiKey"],
        message: "api.openai.com needs a key (HINDSIGHT_LLM_API_KEY or OPENAI_API_KEY)",
      });
    }
  })
  .transform((value) => ({ ...value, model: value.model ?? "gpt-4o-mini" }));

export const LlmConfig = z.discriminatedUnion("provider", [NoLlmConfig, OpenAILlmConfig]);
export type LlmConfig = z.output<typeof LlmConfig>;

const Weight = z.number().min(0).max(1);
const Rate = z.number().min(0).max(10);
/** Timer periods in seconds; Node timers overflow past 2^31 − 1 ms (24.8 days). */
const Seconds = z.number().int().min(0).max(2_000_000);

/** Decay, cold storage, confidence, consolidation, deduplication and their schedule. */
const LifecycleConfig = z.strictObject({
  decay: z
    .strictObject({
      episodicLambda: Rate.default(L.decay.episodicLambda),
      semanticLambda: Rate.default(L.decay.semanticLambda),
      accessWeight: Rate.default(L.decay.accessWeight),
      archiveThreshold: Rate.default(L.decay.archiveThreshold),
    })
    .prefault({}),
  confidence: z
    .strictObject({
      minimum: Weight.default(L.confidence.minimum),
      unusedGraceDays: z.number().min(0).default(L.confidence.unusedGraceDays),
      decayPerDay: Rate.default(L.confidence.decayPerDay),
      usefulStep: Weight.default(L.confidence.usefulStep),
      notUsefulStep: Weight.default(L.confidence.notUsefulStep),
    })
    .prefault({}),
  consolidation: z
    .strictObject({
      minEpisodes: z.number().int().min(2).max(1000).default(L.consolidation.minEpisodes),
      maxEpisodes: z.number().int().min(2).max(500).default(L.consolidation.maxEpisodes),
      maxGroups: z.number().int().min(1).max(1000).default(L.consolidation.maxGroups),
    })
    .prefault({}),
  dedupSimilarity: Weight.default(L.dedupSimilarity),
  schedule: z
    .strictObject({
      maintainIntervalSeconds: Seconds.default(L.schedule.maintainIntervalSeconds),
      consolidateIntervalSeconds: Seconds.default(L.schedule.consolidateIntervalSeconds),
    })
    .prefault({}),
});

/** Lower-case letters, digits and underscores: safe inside a schema or directory name. */
export const TenantName = z
  .string()
  .regex(
    /^[a-z][a-z0-9_]{0,47}$/,
    "must start with a letter and hold at most 48 lower-case letters, digits or underscores",
  );
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

/** A URL node-postgres can connect with; a malformed one failed later as a DNS error. */
function isPostgresUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "postgres:" || url.protocol === "postgresql:";
  } catch {
    return false;
  }
}

export const HindsightConfig = z.strictObject({
  /** PostgreSQL connection string; when absent, the embedded store in `dataDir` is used. */
  databaseUrl: z
    .string()
    .min(1)
    .refine(isPostgresUrl, "must be a postgres:// or postgresql:// connection URL")
    .optional(),
  /**
   * PostgreSQL schema to keep hindsight's tables in (created when missing); default: the
   * connection's search_path. Tenants other than the default one get `hindsight_<tenant>`.
   */
  databaseSchema: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, "must be a lower-case SQL identifier")
    // Two tenants in one schema would be one tenant: their memories merged.
    .refine(
      (schema) => !schema.startsWith("hindsight_"),
      "names starting with hindsight_ are the schemas of tenants (hindsight_<tenant>); choose another",
    )
    .optional(),
  /** Whose memories these are; see tenants/tenant.ts. Each tenant's store is separate. */
  tenant: TenantName.default("default"),
  /** Embedded store directory, or `memory://` for a throw-away database. */
  dataDir: z.string().min(1),
  /** How long a second process waits for the embedded directory's owner to exit. */
  lockTimeoutMs: z.number().int().min(0).default(10_000),
  /**
   * PostgreSQL: how long a statement (and a new connection) may take before it fails with
   * STORAGE_FAILED. A database that stops answering (frozen, a network partition) must not
   * hang every request; `/health` answers within its own 3 s whatever this is.
   */
  databaseTimeoutMs: z.number().int().min(100).default(60_000),
  /**
   * PostgreSQL: how long opening the store waits for a server that does not accept
   * connections yet (starting up, not listening, its name not resolvable yet), retrying with a
   * bounded backoff and logging why; then STORAGE_FAILED. Failures waiting cannot fix (a wrong
   * password, a missing database) fail at once. Only a process's first connection to a server
   * waits. 0 (the library's default): no wait; the environment's default is 60 s.
   */
  databaseWaitMs: z.number().int().min(0).default(0),
  /**
   * PostgreSQL: run statements prepared under a name on each connection, parsed once and
   * planned once where their plan does not depend on the values (recall's statements: a
   * quarter faster). A pooler that does not keep prepared statements is noticed (one warning)
   * and statements run unnamed from then on; false runs them unnamed from the start.
   */
  databasePreparedStatements: z.boolean().default(true),
  /**
   * Embedded store: its buffer pool in MB, for every process that opens it. Default: sized to
   * the store for a long-running process (128–512 MB, see adapters/storage/pglite-buffers),
   * 16 MB for a one-shot command.
   */
  pgliteBuffersMb: z.number().int().min(16).max(1024).optional(),
  /** Default: the local multilingual model fetched by `hindsight fetch-model`. */
  embedder: EmbedderConfig.default({ kind: "local", allowRemote: false }),
  llm: LlmConfig.default({ provider: "none" }),
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
      feedbackWeight: Weight.default(DEFAULT_RANKING.feedbackWeight),
      keywordTrustAt: Weight.default(DEFAULT_RANKING.keywordTrustAt),
      rrfK: z.number().positive().default(DEFAULT_RANKING.rrfK),
      outcomeWeights: z
        .strictObject({
          success: Weight.default(DEFAULT_RANKING.outcomeWeights.success),
          failure: Weight.default(DEFAULT_RANKING.outcomeWeights.failure),
          partial: Weight.default(DEFAULT_RANKING.outcomeWeights.partial),
        })
        .default(DEFAULT_RANKING.outcomeWeights),
      askingWeight: Weight.default(DEFAULT_RANKING.askingWeight),
      whenWeight: Weight.default(DEFAULT_RANKING.whenWeight),
      echoWeight: Weight.default(DEFAULT_RANKING.echoWeight),
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
      feedbackWeight: DEFAULT_RANKING.feedbackWeight,
      keywordTrustAt: DEFAULT_RANKING.keywordTrustAt,
      rrfK: DEFAULT_RANKING.rrfK,
      outcomeWeights: DEFAULT_RANKING.outcomeWeights,
      askingWeight: DEFAULT_RANKING.askingWeight,
      whenWeight: DEFAULT_RANKING.whenWeight,
      echoWeight: DEFAULT_RANKING.echoWeight,
      weights: DEFAULT_RANKING.weights,
    }),
  lifecycle: LifecycleConfig.prefault({}),
  sharing: z
    .strictObject({
      /** Trust of sources nobody has rated: `low` quarantines their shared writes. */
      defaultTrust: z.enum(TRUST_LEVELS).default(DEFAULT_SHARING.defaultTrust),
    })
    .prefault({}),
});

export type HindsightConfig = z.output<typeof HindsightConfig>;
export type HindsightConfigInput = z.input<typeof HindsightConfig>;
