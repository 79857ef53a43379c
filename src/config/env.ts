/**
 * Builds the configuration from environment variables and CLI flags. Entry points only.
 */

import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { ErrorCode, HindsightError } from "../core/errors.js";
import type { TrustLevel } from "../core/sharing/types.js";
import type { HindsightConfigInput } from "./schema.js";

export interface ConfigFlags {
  databaseUrl?: string;
  dataDir?: string;
  tenant?: string;
}

type Env = Record<string, string | undefined>;

/** HINDSIGHT_DB_WAIT_MS when unset: how long entry points wait for PostgreSQL to accept connections. */
export const DEFAULT_DB_WAIT_MS = 60_000;

function number(env: Env, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) {
    throw new HindsightError(ErrorCode.CONFIG_INVALID, `${name}: '${raw}' is not a number`, {
      field: name,
    });
  }
  return value;
}

function boolean(env: Env, name: string): boolean | undefined {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return undefined;
  if (["true", "1", "on", "yes"].includes(raw)) return true;
  if (["false", "0", "off", "no"].includes(raw)) return false;
  throw new HindsightError(
    ErrorCode.CONFIG_INVALID,
    `${name}: '${env[name]}' is not true or false`,
    {
      field: name,
    },
  );
}

function expandHome(path: string): string {
  return path === "~" || path.startsWith("~/") ? join(homedir(), path.slice(1)) : path;
}

/** "Latin,Han" → ["Latin", "Han"]; "all" stays "all". */
function scriptList(value: string): string[] | "all" {
  const names = value
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
  return names.length === 1 && names[0]!.toLowerCase() === "all" ? "all" : names;
}

function embedderFromEnv(env: Env): HindsightConfigInput["embedder"] {
  const kind = (env.HINDSIGHT_EMBEDDER || "local").trim().toLowerCase();
  switch (kind) {
    case "hash":
      return { kind: "hash" };
    case "local":
      return {
        kind: "local",
        ...(env.HINDSIGHT_EMBEDDING_MODEL_DIR
          ? { modelDir: resolve(expandHome(env.HINDSIGHT_EMBEDDING_MODEL_DIR)) }
          : {}),
        ...(env.EMBEDDING_MODEL ? { model: env.EMBEDDING_MODEL } : {}),
        ...(env.HINDSIGHT_MODELS_DIR
          ? { modelsDir: resolve(expandHome(env.HINDSIGHT_MODELS_DIR)) }
          : {}),
        ...(env.HINDSIGHT_EMBEDDING_SCRIPTS?.trim()
          ? { scripts: scriptList(env.HINDSIGHT_EMBEDDING_SCRIPTS) }
          : {}),
        // A hub name (EMBEDDING_MODEL) may be downloaded unless HF_HUB_OFFLINE=1; the default
        // model never is (it comes from `hindsight fetch-model`).
        allowRemote:
          env.HF_HUB_OFFLINE !== "1" &&
          !env.HINDSIGHT_EMBEDDING_MODEL_DIR &&
          Boolean(env.EMBEDDING_MODEL),
      };
    case "openai": {
      const dimensions = number(env, "EMBEDDING_DIMENSIONS");
      return {
        kind: "openai",
        ...(env.OPENAI_BASE_URL ? { baseUrl: env.OPENAI_BASE_URL } : {}),
        ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
        ...(env.EMBEDDING_MODEL ? { model: env.EMBEDDING_MODEL } : {}),
        ...(dimensions === undefined ? {} : { dimensions }),
      };
    }
    default:
      throw new HindsightError(
        ErrorCode.CONFIG_INVALID,
        `HINDSIGHT_EMBEDDER: '${kind}' is not one of hash, local, openai`,
        { field: "HINDSIGHT_EMBEDDER" },
      );
  }
}

/** The lifecycle settings the environment overrides; the rest come from the config schema. */
function lifecycleFromEnv(env: Env): HindsightConfigInput["lifecycle"] | undefined {
  const maintain = number(env, "HINDSIGHT_MAINTAIN_INTERVAL");
  const consolidate = number(env, "HINDSIGHT_CONSOLIDATE_INTERVAL");
  const threshold = number(env, "HINDSIGHT_ARCHIVE_THRESHOLD");
  const episodic = number(env, "HINDSIGHT_DECAY_LAMBDA_EPISODIC");
  const semantic = number(env, "HINDSIGHT_DECAY_LAMBDA_SEMANTIC");
  const minEpisodes = number(env, "HINDSIGHT_CONSOLIDATE_MIN_EPISODES");
  const dedup = number(env, "HINDSIGHT_DEDUP_SIMILARITY");
  const given = <T extends Record<string, number | undefined>>(values: T) =>
    Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
  const lifecycle = {
    decay: given({
      archiveThreshold: threshold,
      episodicLambda: episodic,
      semanticLambda: semantic,
    }),
    consolidation: given({ minEpisodes }),
    schedule: given({ maintainIntervalSeconds: maintain, consolidateIntervalSeconds: consolidate }),
    ...given({ dedupSimilarity: dedup }),
  };
  const empty = Object.values(lifecycle).every(
    (value) => typeof value === "object" && Object.keys(value).length === 0,
  );
  return empty ? undefined : lifecycle;
}

/**
 * The language model: `HINDSIGHT_LLM_PROVIDER` (none | openai), which defaults to openai as
 * soon as a base URL or model is given. OPENAI_API_KEY is used only against OpenAI itself, so a
 * key for OpenAI never travels to another server.
 */
function llmFromEnv(env: Env): HindsightConfigInput["llm"] {
  const baseUrl = env.HINDSIGHT_LLM_BASE_URL?.trim() || undefined;
  const model = env.HINDSIGHT_LLM_MODEL?.trim() || undefined;
  const provider = (env.HINDSIGHT_LLM_PROVIDER?.trim().toLowerCase() ||
    (baseUrl || model ? "openai" : "none")) as string;
  if (provider === "none") return { provider: "none" };
  if (provider !== "openai") {
    throw new HindsightError(
      ErrorCode.CONFIG_INVALID,
      `HINDSIGHT_LLM_PROVIDER: '${provider}' is not one of none, openai (any OpenAI-compatible server)`,
      { field: "HINDSIGHT_LLM_PROVIDER" },
    );
  }
  const apiKey =
    env.HINDSIGHT_LLM_API_KEY?.trim() || (baseUrl ? undefined : env.OPENAI_API_KEY?.trim());
  const summaryModel = env.HINDSIGHT_LLM_SUMMARY_MODEL?.trim() || undefined;
  const timeoutMs = number(env, "HINDSIGHT_LLM_TIMEOUT_MS");
  const maxRetries = number(env, "HINDSIGHT_LLM_MAX_RETRIES");
  const breakerFailures = number(env, "HINDSIGHT_LLM_BREAKER_FAILURES");
  const breakerCooldownMs = number(env, "HINDSIGHT_LLM_BREAKER_COOLDOWN_MS");
  const breaker = {
    ...(breakerFailures === undefined ? {} : { failures: breakerFailures }),
    ...(breakerCooldownMs === undefined ? {} : { cooldownMs: breakerCooldownMs }),
  };
  return {
    provider: "openai",
    ...(baseUrl ? { baseUrl } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(model ? { model } : {}),
    ...(summaryModel ? { summaryModel } : {}),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(maxRetries === undefined ? {} : { maxRetries }),
    ...(Object.keys(breaker).length > 0 ? { breaker } : {}),
  };
}

function workingFromEnv(env: Env): HindsightConfigInput["working"] {
  const budgetTokens = number(env, "HINDSIGHT_WORKING_BUDGET");
  const ttlSeconds = number(env, "HINDSIGHT_WORKING_TTL_SECONDS");
  const timeoutMs = number(env, "HINDSIGHT_WORKING_TIMEOUT_MS");
  return {
    ...(env.REDIS_URL ? { redisUrl: env.REDIS_URL } : {}),
    ...(budgetTokens === undefined ? {} : { budgetTokens }),
    ...(ttlSeconds === undefined ? {} : { ttlSeconds }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(env.HINDSIGHT_WORKING_KEY_PREFIX ? { keyPrefix: env.HINDSIGHT_WORKING_KEY_PREFIX } : {}),
  };
}

const WEIGHT_NAMES = ["vector", "keyword", "freshness", "frequency"] as const;

/** "vector=0.5,keyword=0.3" → { vector: 0.5, keyword: 0.3 }; the others keep their defaults. */
function recallWeights(
  env: Env,
): Partial<Record<(typeof WEIGHT_NAMES)[number], number>> | undefined {
  const raw = env.HINDSIGHT_RECALL_WEIGHTS?.trim();
  if (!raw) return undefined;
  const weights: Partial<Record<(typeof WEIGHT_NAMES)[number], number>> = {};
  for (const part of raw.split(",")) {
    const [name, value] = part.split("=").map((item) => item.trim());
    const weight = Number(value);
    if (!WEIGHT_NAMES.includes(name as never) || value === undefined || !Number.isFinite(weight)) {
      throw new HindsightError(
        ErrorCode.CONFIG_INVALID,
        `HINDSIGHT_RECALL_WEIGHTS: '${part}' is not <${WEIGHT_NAMES.join("|")}>=<number>`,
        { field: "HINDSIGHT_RECALL_WEIGHTS" },
      );
    }
    weights[name as (typeof WEIGHT_NAMES)[number]] = weight;
  }
  return weights;
}

export function configFromEnv(env: Env, flags: ConfigFlags = {}): HindsightConfigInput {
  const databaseUrl = flags.databaseUrl ?? env.DATABASE_URL;
  const dataDir = flags.dataDir ?? env.HINDSIGHT_DATA_DIR ?? join(homedir(), ".hindsight", "data");
  const lockTimeoutMs = number(env, "HINDSIGHT_LOCK_TIMEOUT_MS");
  const databaseTimeoutMs = number(env, "HINDSIGHT_DB_TIMEOUT_MS");
  // Servers and commands started beside their database wait for it (see connect-retry).
  const databaseWaitMs = number(env, "HINDSIGHT_DB_WAIT_MS") ?? DEFAULT_DB_WAIT_MS;
  const databasePreparedStatements = boolean(env, "HINDSIGHT_DB_PREPARED_STATEMENTS");
  const pgliteBuffersMb = number(env, "HINDSIGHT_PGLITE_BUFFERS_MB");
  const recall = recallFromEnv(env);
  const lifecycle = lifecycleFromEnv(env);
  const tenant = flags.tenant ?? env.HINDSIGHT_TENANT;
  const databaseSchema = env.HINDSIGHT_DATABASE_SCHEMA;
  const defaultTrust = env.HINDSIGHT_DEFAULT_TRUST?.trim().toLowerCase();
  return {
    ...(lifecycle ? { lifecycle } : {}),
    ...(defaultTrust ? { sharing: { defaultTrust: defaultTrust as TrustLevel } } : {}),
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(databaseSchema ? { databaseSchema } : {}),
    ...(tenant ? { tenant } : {}),
    dataDir: dataDir === "memory://" ? dataDir : resolve(expandHome(dataDir)),
    ...(lockTimeoutMs === undefined ? {} : { lockTimeoutMs }),
    ...(databaseTimeoutMs === undefined ? {} : { databaseTimeoutMs }),
    databaseWaitMs,
    ...(databasePreparedStatements === undefined ? {} : { databasePreparedStatements }),
    ...(pgliteBuffersMb === undefined ? {} : { pgliteBuffersMb }),
    embedder: embedderFromEnv(env),
    llm: llmFromEnv(env),
    working: workingFromEnv(env),
    ...(Object.keys(recall).length > 0 ? { recall } : {}),
  };
}

/** The recall settings the environment sets, and only those. */
function recallFromEnv(env: Env) {
  const floor = number(env, "HINDSIGHT_RECALL_FLOOR");
  const fusion = env.HINDSIGHT_RECALL_FUSION;
  const feedbackWeight = number(env, "HINDSIGHT_RECALL_FEEDBACK");
  const keywordTrustAt = number(env, "HINDSIGHT_RECALL_KEYWORD_TRUST_AT");
  const askingWeight = number(env, "HINDSIGHT_RECALL_ASKING_WEIGHT");
  const whenWeight = number(env, "HINDSIGHT_RECALL_WHEN_WEIGHT");
  const echoWeight = number(env, "HINDSIGHT_RECALL_ECHO_WEIGHT");
  const weights = recallWeights(env);
  return {
    ...(floor === undefined ? {} : { floor }),
    ...(weights ? { weights } : {}),
    ...(fusion ? { fusion: fusion as "weighted" | "rrf" } : {}),
    ...(feedbackWeight === undefined ? {} : { feedbackWeight }),
    ...(keywordTrustAt === undefined ? {} : { keywordTrustAt }),
    ...(askingWeight === undefined ? {} : { askingWeight }),
    ...(whenWeight === undefined ? {} : { whenWeight }),
    ...(echoWeight === undefined ? {} : { echoWeight }),
  };
}
