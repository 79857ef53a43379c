/**
 * JSON POSTs to OpenAI-compatible endpoints (embeddings, chat completions) with a timeout per
 * attempt and retries with exponential backoff on 408, 429, 5xx, network errors and timeouts,
 * honouring Retry-After up to a cap. Callers turn a final failure into their own error code.
 */
import { ErrorCode, HindsightError } from "../core/errors.js";
import type { Logger } from "../core/ports.js";

const BACKOFF_BASE_MS = 250;
const BACKOFF_MAX_MS = 10_000;
/** A server asking for a longer pause is waited on for this long at most, then asked again. */
export const RETRY_AFTER_MAX_MS = 30_000;
const EXCERPT_CHARS = 200;

export interface RetryingPostOptions {
  endpoint: string;
  apiKey?: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  fetch?: typeof fetch;
  /** Injected so tests need not wait through backoff delays. */
  sleep?: (ms: number) => Promise<void>;
  logger?: Logger | undefined;
  /** Names the request in retry logs: "embedding request", "chat completion". */
  label: string;
}

/** Why a request finally failed: `reason` is safe to show (the key is masked). */
export class PostFailure extends Error {
  constructor(
    readonly reason: string,
    readonly attempts: number,
    /** The HTTP status when the server answered. */
    readonly status: number | undefined,
    /** The whole answer body, for callers that recognise particular errors. */
    readonly body: string,
  ) {
    super(attempts > 1 ? `${reason} (after ${attempts} attempts)` : reason);
    this.name = "PostFailure";
  }
}

type Attempt =
  | { ok: true; body: string }
  | {
      ok: false;
      retryable: boolean;
      reason: string;
      body: string;
      status?: number;
      retryAfterMs?: number;
    };

/**
 * `{baseUrl}/{path}` after checking the URL: http(s) only and no credentials, which would
 * leak into every error message (fetch refuses them too). Bad URLs are CONFIG_INVALID.
 */
export function resolveEndpoint(baseUrl: string, path: string, component: string): string {
  const fail = (message: string) =>
    new HindsightError(ErrorCode.CONFIG_INVALID, `${component}: ${message}`);
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw fail(`baseUrl ${JSON.stringify(baseUrl)} is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw fail(`baseUrl must use http or https, got ${url.protocol}`);
  }
  if (url.username !== "" || url.password !== "") {
    throw fail("baseUrl must not contain credentials; pass the key as apiKey");
  }
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/${path}`;
  return url.href;
}

/** Retry-After in seconds or as an HTTP date, capped; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const seconds = Number(header.trim());
  let ms: number;
  if (Number.isFinite(seconds)) {
    ms = seconds * 1000;
  } else {
    const at = Date.parse(header);
    if (Number.isNaN(at)) return undefined;
    ms = at - now;
  }
  return ms < 0 ? 0 : Math.min(ms, RETRY_AFTER_MAX_MS);
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

/** A one-line excerpt of an answer body with the key masked: some servers echo it in 401s. */
export function excerpt(body: string, apiKey?: string): string {
  let text = body.replace(/\s+/g, " ").trim();
  if (apiKey) text = text.split(apiKey).join("***");
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * POSTs `payload` as JSON and returns the answer body of the first 2xx. Throws PostFailure
 * once the answer is not retryable or the retries are spent.
 */
export async function postJsonWithRetry(
  options: RetryingPostOptions,
  payload: unknown,
): Promise<string> {
  const { endpoint, apiKey, timeoutMs, maxRetries, logger, label } = options;
  const fetchFn = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const body = JSON.stringify(payload);

  async function attempt(): Promise<Attempt> {
    try {
      const response = await fetchFn(endpoint, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      if (response.ok) return { ok: true, body: text };
      const { status } = response;
      return {
        ok: false,
        retryable: isRetryableStatus(status),
        status,
        body: text,
        reason: `HTTP ${status}: ${excerpt(text, apiKey)}`,
        retryAfterMs:
          status === 429 || status === 503
            ? parseRetryAfter(response.headers.get("retry-after"))
            : undefined,
      };
    } catch (error) {
      const reason = isTimeout(error)
        ? `timed out after ${timeoutMs} ms`
        : `network error: ${describeNetworkError(error)}`;
      return { ok: false, retryable: true, reason, body: "" };
    }
  }

  for (let retry = 0; ; retry++) {
    const result = await attempt();
    if (result.ok) return result.body;
    if (!result.retryable || retry >= maxRetries) {
      throw new PostFailure(result.reason, retry + 1, result.status, result.body);
    }
    const backoff = Math.min(BACKOFF_BASE_MS * 2 ** retry, BACKOFF_MAX_MS);
    // Jitter spreads out clients that failed together so they do not retry in lockstep.
    const delayMs = result.retryAfterMs ?? Math.round(backoff * (1 + Math.random()));
    logger?.warn(`${label} failed; retrying`, {
      endpoint,
      reason: result.reason,
      retry: retry + 1,
      delayMs,
    });
    await sleep(delayMs);
  }
}
