/**
 * Embedder for any OpenAI-compatible `POST {baseUrl}/embeddings` endpoint: OpenAI, Ollama,
 * vLLM, Hugging Face TEI. Only the common subset of the API is used (`model` + `input` in,
 * `data[].embedding` + `index` out) so every server of that family works unchanged.
 */
import { z } from "zod";
import { ErrorCode, HindsightError } from "../../core/errors.js";
import type { Embedder, Logger } from "../../core/ports.js";
import { excerpt, PostFailure, postJsonWithRetry, resolveEndpoint } from "../retrying-post.js";

const optionsSchema = z.object({
  baseUrl: z.string().min(1).describe("API root, e.g. https://api.openai.com/v1"),
  apiKey: z.string().optional().describe("Sent as a Bearer token when present"),
  model: z.string().min(1).describe("Embedding model name"),
  dimensions: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Expected vector size; discovered with one probe request when absent"),
  batchSize: z.number().int().positive().default(64),
  timeoutMs: z.number().int().positive().default(30_000),
  maxRetries: z.number().int().min(0).max(10).default(3),
});

export type OpenAIEmbedderOptions = z.input<typeof optionsSchema>;

export interface OpenAIEmbedderDeps {
  logger?: Logger;
  fetch?: typeof fetch;
  /** Injected so tests need not wait through backoff delays. */
  sleep?: (ms: number) => Promise<void>;
}

const responseSchema = z.object({
  data: z.array(
    z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) }),
  ),
});

const PROBE_TEXT = "dimension probe";

function configError(message: string): HindsightError {
  return new HindsightError(ErrorCode.CONFIG_INVALID, `openai embedder: ${message}`);
}

function normalise(values: readonly number[]): Float32Array {
  let sum = 0;
  for (const value of values) sum += value * value;
  // A zero vector has no direction; leave it zero rather than produce NaNs.
  const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  return Float32Array.from(values, (value) => value * scale);
}

export async function createOpenAIEmbedder(
  options: OpenAIEmbedderOptions,
  deps: OpenAIEmbedderDeps = {},
): Promise<Embedder> {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw configError(`${issue?.path.join(".") ?? "options"}: ${issue?.message ?? "invalid"}`);
  }
  const { apiKey, model, batchSize, timeoutMs, maxRetries } = parsed.data;
  const endpoint = resolveEndpoint(parsed.data.baseUrl, "embeddings", "openai embedder");
  const post = {
    endpoint,
    apiKey,
    timeoutMs,
    maxRetries,
    logger: deps.logger,
    label: "embedding request",
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
  };
  const logger = deps.logger;

  const fail = (reason: string, details: Record<string, unknown> = {}, cause?: unknown) =>
    new HindsightError(
      ErrorCode.EMBEDDER_FAILED,
      `embedding request to ${endpoint} failed: ${reason}`,
      { details: { endpoint, model, ...details }, cause },
    );

  function parseVectors(body: string, expected: number): number[][] {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch (error) {
      throw fail(`response is not JSON: ${excerpt(body, apiKey)}`, {}, error);
    }
    const result = responseSchema.safeParse(json);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw fail(`unexpected response shape at ${issue?.path.join(".")}: ${issue?.message}`);
    }
    // Servers may answer out of order; `index` is the only reliable link to the input.
    const data = [...result.data.data].sort((a, b) => a.index - b.index);
    if (data.length !== expected || data.some((item, i) => item.index !== i)) {
      throw fail(`expected ${expected} embeddings with indices 0..${expected - 1}`);
    }
    return data.map((item) => item.embedding);
  }

  async function request(input: readonly string[]): Promise<number[][]> {
    let body: string;
    try {
      body = await postJsonWithRetry(post, { model, input });
    } catch (error) {
      if (error instanceof PostFailure) throw fail(error.message, { status: error.status }, error);
      throw error;
    }
    return parseVectors(body, input.length);
  }

  let dimensions = parsed.data.dimensions;
  if (dimensions === undefined) {
    const [probe] = await request([PROBE_TEXT]);
    if (!probe || probe.length === 0) throw fail("probe returned an empty embedding");
    dimensions = probe.length;
    logger?.debug("embedding dimensions discovered", { endpoint, model, dimensions });
  }
  const dims = dimensions;

  return {
    id: `openai:${model}`,
    dimensions: dims,
    async embed(texts) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        for (const values of await request(texts.slice(start, start + batchSize))) {
          if (values.length !== dims) {
            throw fail(`expected ${dims}-dimensional embeddings, got ${values.length}`);
          }
          vectors.push(normalise(values));
        }
      }
      return vectors;
    },
  };
}
