/**
 * A memory service on a test backend with the pieces the lifecycle tests control: the clock,
 * a scripted language model, the embedder and the lifecycle settings.
 */

import { fixedClock } from "../../src/adapters/clock.js";
import { createHashEmbedder } from "../../src/adapters/embedders/hash.js";
import { silentLogger } from "../../src/adapters/logger.js";
import { openStorage } from "../../src/adapters/storage/open-store.js";
import { cl100k } from "../../src/adapters/tokens.js";
import { ErrorCode, HindsightError } from "../../src/core/errors.js";
import { DEFAULT_LIFECYCLE, type LifecycleSettings } from "../../src/core/lifecycle/settings.js";
import type {
  ChatRequest,
  ChatResponse,
  Embedder,
  LanguageModel,
  LlmUsage,
  Logger,
  Storage,
} from "../../src/core/ports.js";
import { DEFAULT_RANKING } from "../../src/core/recall/ranking.js";
import { MemoryService } from "../../src/core/service.js";
import type { SharingSettings } from "../../src/core/sharing/sharing.js";

export type Clock = ReturnType<typeof fixedClock>;

export interface ServiceOptions {
  clock?: Clock;
  llm?: LanguageModel;
  embedder?: Embedder;
  lifecycle?: Partial<LifecycleSettings>;
  logger?: Logger;
  sharing?: SharingSettings;
  /** Wraps the storage ports, to observe what the service asks of them. */
  wrapStorage?: (storage: Storage) => Storage;
}

export async function openLifecycleService(
  location: { databaseUrl?: string; dataDir: string },
  options: ServiceOptions = {},
): Promise<MemoryService> {
  return serviceOn(await openStorage(location, options.logger ?? silentLogger), options);
}

/** The same service on storage the caller opened (and may query below the ports); migrated. */
export async function serviceOn(
  storage: Storage,
  options: ServiceOptions = {},
): Promise<MemoryService> {
  const logger = options.logger ?? silentLogger;
  const service = new MemoryService({
    storage: (options.wrapStorage ?? ((storage) => storage))(storage),
    embedder: options.embedder ?? createHashEmbedder(),
    clock: options.clock ?? fixedClock(new Date("2025-01-01T00:00:00Z")),
    logger,
    ranking: DEFAULT_RANKING,
    candidateLimit: 30,
    tokens: cl100k,
    ...(options.llm ? { llm: options.llm } : {}),
    lifecycle: { ...DEFAULT_LIFECYCLE, ...options.lifecycle },
    ...(options.sharing ? { sharing: options.sharing } : {}),
  });
  await service.migrate();
  return service;
}

/** One scripted answer: text, or an error the model call throws. */
export type Answer = string | Error | ((request: ChatRequest) => string);

/**
 * A language model that answers from a script, per purpose, and records what it was asked.
 * When a purpose's script runs out it fails with LLM_FAILED, as a real adapter would.
 */
export class ScriptedModel implements LanguageModel {
  readonly id = "scripted:test";
  readonly requests: ChatRequest[] = [];
  private readonly counts = { requests: 0, failures: 0, prompt_tokens: 0, completion_tokens: 0 };

  constructor(private readonly script: Record<string, Answer[]>) {}

  async chat(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push(request);
    this.counts.requests += 1;
    const answer = this.script[request.purpose]?.shift();
    if (answer === undefined || answer instanceof Error) {
      this.counts.failures += 1;
      throw (
        answer ??
        new HindsightError(ErrorCode.LLM_FAILED, `no scripted answer for ${request.purpose}`)
      );
    }
    const text = typeof answer === "function" ? answer(request) : answer;
    return { text, model: this.id, usage: { prompt_tokens: 10, completion_tokens: 5 } };
  }

  usage(): LlmUsage {
    return { ...this.counts };
  }

  asked(purpose: string): ChatRequest[] {
    return this.requests.filter((request) => request.purpose === purpose);
  }
}

/** A logger that keeps warnings and errors for assertions. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    lines.push(`${level} ${message} ${fields ? JSON.stringify(fields) : ""}`);
  return { lines, debug: () => {}, info: () => {}, warn: keep("warn"), error: keep("error") };
}

/**
 * An embedder that maps chosen texts to chosen vectors (to set exact similarities) and
 * everything else to the hash embedder.
 */
export function steeredEmbedder(vectors: Map<string, number[]>): Embedder {
  const hash = createHashEmbedder();
  return {
    id: hash.id,
    dimensions: hash.dimensions,
    async embed(texts) {
      const fallback = await hash.embed(texts);
      return texts.map((text, index) => {
        const wanted = vectors.get(text);
        if (!wanted) return fallback[index]!;
        const vector = new Float32Array(hash.dimensions);
        wanted.forEach((value, i) => {
          vector[i] = value;
        });
        return vector;
      });
    },
  };
}

/** A unit vector at cosine `similarity` to the first axis, leaning towards another axis. */
export function atCosine(similarity: number, towards = 1): number[] {
  const vector = [similarity];
  vector[towards] = Math.sqrt(1 - similarity * similarity);
  return Array.from(vector, (value) => value ?? 0);
}

export const DAY = 86_400_000;
