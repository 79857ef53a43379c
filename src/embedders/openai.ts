/**
 * Embedder for any OpenAI-compatible `POST {baseUrl}/embeddings` endpoint: OpenAI, Ollama,
 * vLLM, Hugging Face TEI. Only the common subset of the API is used (`model` + `input` in,
 * `data[].embedding` + `index` out) so every server of that family works unchanged.
 */
import { z } from "zod";
import { ErrorCode, HindsightError } from "../core/errors.js";
import type { Embedder, Logger } from "../core/ports.js";

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

const BACKOFF_BASE_MS = 250;
const BACKOFF_MAX_MS = 10_000;
/** A server asking for a longer pause than this is better reported than waited on. */
const RETRY_AFTER_MAX_MS = 30_000;
const EXCERPT_CHARS = 200;
const PROBE_TEXT = "dimension probe";

type Attempt =
  | { ok: true; body: string }
  | { ok: false; retryable: boolean; reason: string; status?: number; retryAfterMs?: number };

function configError(message: string): HindsightError {
  return new HindsightError(ErrorCode.CONFIG_INVALID, `openai embedder: ${message}`);
}

function resolveEndpoint(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw configError(`baseUrl ${JSON.stringify(baseUrl)} is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw configError(`baseUrl must use http or https, got ${url.protocol}`);
  }
  // Credentials in the URL would leak into every error message; fetch also refuses them.
  if (url.username !== "" || url.password !== "") {
    throw configError("baseUrl must not contain credentials; pass the key as apiKey");
  }
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/embeddings`;
  return url.href;
}

function parseRetryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header.trim());
  if (!Number.isFinite(seconds) || seconds < 0) return undefined;
  return Math.min(seconds * 1000, RETRY_AFTER_MAX_MS);
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

/** Node's fetch reports "fetch failed" and hides the useful part (ECONNREFUSED…) in `cause`. */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
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
  const endpoint = resolveEndpoint(parsed.data.baseUrl);
  const fetchFn = deps.fetch ?? globalThis.fetch;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const logger = deps.logger;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;

  const excerpt = (body: string): string => {
    let text = body.replace(/\s+/g, " ").trim();
    // Some servers echo the key back in 401 bodies.
    if (apiKey) text = text.split(apiKey).join("***");
    return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
  };

  const fail = (reason: string, details: Record<string, unknown> = {}, cause?: unknown) =>
    new HindsightError(
      ErrorCode.EMBEDDER_FAILED,
      `embedding request to ${endpoint} failed: ${reason}`,
      { details: { endpoint, model, ...details }, cause },
    );

  async function attempt(input: readonly string[]): Promise<Attempt> {
    try {
      const response = await fetchFn(endpoint, {
        method: "POST",
        headers,
        body: JSON.stringify({ model, input }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const body = await response.text();
      if (response.ok) return { ok: true, body };
      const { status } = response;
      return {
        ok: false,
        retryable: status === 429 || status >= 500,
        status,
        reason: `HTTP ${status}: ${excerpt(body)}`,
        retryAfterMs:
          status === 429 ? parseRetryAfter(response.headers.get("retry-after")) : undefined,
      };
    } catch (error) {
      const reason = isTimeout(error)
        ? `timed out after ${timeoutMs} ms`
        : `network error: ${describeNetworkError(error)}`;
      return { ok: false, retryable: true, reason };
    }
  }

  function parseVectors(body: string, expected: number): number[][] {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch (error) {
      throw fail(`response is not JSON: ${excerpt(body)}`, {}, error);
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
    for (let retry = 0; ; retry++) {
      const result = await attempt(input);
      if (result.ok) return parseVectors(result.body, input.length);
      if (!result.retryable || retry >= maxRetries) {
        const tries = retry > 0 ? ` (after ${retry + 1} attempts)` : "";
        throw fail(`${result.reason}${tries}`, { status: result.status });
      }
      const backoff = Math.min(BACKOFF_BASE_MS * 2 ** retry, BACKOFF_MAX_MS);
      // Jitter spreads out clients that failed together so they do not retry in lockstep.
      const delayMs = result.retryAfterMs ?? Math.round(backoff * (1 + Math.random()));
      logger?.warn("embedding request failed; retrying", {
        endpoint,
        reason: result.reason,
        retry: retry + 1,
        delayMs,
      });
      await sleep(delayMs);
    }
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
