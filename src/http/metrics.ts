/**
 * Prometheus metrics in a registry of the app's own: embedding hindsight never pollutes the
 * host program's global registry, and two apps in one process do not collide.
 */
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { MemoryApi } from "../core/memory-api.js";
import type { Logger } from "../core/ports.js";
import { LAYERS, type LlmStats, type MemoryStats, STATUSES } from "../core/types.js";

export interface HttpMetricsOptions {
  /** Where to register; defaults to a new registry. The same registry cannot serve two apps. */
  registry?: Registry;
}

export interface HttpMetrics {
  readonly registry: Registry;
  /** Counts and times every request by method, route template and status. */
  readonly middleware: MiddlewareHandler;
}

/** Hono's `/v1/memories/:id` → the documented `/v1/memories/{id}`, bounding label values. */
function routeLabel(path: string): string {
  if (path === "" || path.includes("*")) return "unmatched";
  return path.replace(/:(\w+)/g, "{$1}");
}

export function createHttpMetrics(
  memory: MemoryApi,
  logger: Logger,
  options: HttpMetricsOptions = {},
): HttpMetrics {
  const registry = options.registry ?? new Registry();
  const labelNames = ["method", "route", "status"] as const;
  const requests = new Counter({
    name: "hindsight_http_requests_total",
    help: "HTTP requests by method, route template and status.",
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "hindsight_http_request_duration_seconds",
    help: "HTTP request latency in seconds, until the response headers are ready.",
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // Both gauges are collected concurrently by one scrape; they share one count of the store.
  let counting: Promise<MemoryStats | undefined> | undefined;
  const countOnce = () => {
    counting ??= memory
      .stats()
      .catch((error: unknown) => {
        logger.warn("metrics: could not count memories", { error: String(error) });
        return undefined;
      })
      .finally(() => {
        counting = undefined;
      });
    return counting;
  };
  new Gauge({
    name: "hindsight_store_up",
    help: "1 when the memory store answered this scrape, else 0.",
    registers: [registry],
    async collect() {
      this.set((await countOnce()) ? 1 : 0);
    },
  });
  // Counted at scrape time: no background polling, and never staler than the scrape.
  new Gauge({
    name: "hindsight_memories",
    help: "Memories by layer and status, counted when scraped.",
    labelNames: ["layer", "status"] as const,
    registers: [registry],
    async collect() {
      const stats = await countOnce();
      // Without an answer, old counts would look current: report none.
      this.reset();
      if (!stats) return;
      for (const layer of LAYERS) {
        for (const status of STATUSES) this.set({ layer, status }, stats[layer][status]);
      }
    },
  });

  registerLlmMetrics(registry, countOnce);

  const middleware: MiddlewareHandler = async (c, next) => {
    const stop = duration.startTimer();
    await next();
    const labels = {
      method: c.req.method,
      route: routeLabel(routePath(c, -1)),
      status: String(c.res.status),
    };
    stop(labels);
    requests.inc(labels);
  };
  return { registry, middleware };
}

/**
 * The language model's calls, failures, tokens, fallbacks and circuit breaker, read from the
 * same stats as the memory counts. The counts are counters (monotonic since the process
 * started), set from the service's own counts at scrape time.
 */
function registerLlmMetrics(
  registry: Registry,
  countOnce: () => Promise<MemoryStats | undefined>,
): void {
  const fromStats = (
    name: string,
    help: string,
    labelNames: readonly string[],
    values: (llm: LlmStats) => [Record<string, string>, number][],
  ) =>
    new Counter({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const stats = await countOnce();
        this.reset();
        if (!stats) return;
        for (const [labels, value] of values(stats.llm)) this.inc(labels, value);
      },
    });
  const tiers = (llm: LlmStats) =>
    (["main", "cheap"] as const).map((tier) => ({
      tier,
      model: modelOf(llm, tier),
      counts: llm.tiers[tier],
    }));
  fromStats(
    "hindsight_llm_requests_total",
    "Language-model chat calls by tier (main, cheap) and model.",
    ["tier", "model"],
    (llm) => tiers(llm).map(({ tier, model, counts }) => [{ tier, model }, counts.requests]),
  );
  fromStats(
    "hindsight_llm_failures_total",
    "Language-model chat calls that failed after their retries, by tier and model.",
    ["tier", "model"],
    (llm) => tiers(llm).map(({ tier, model, counts }) => [{ tier, model }, counts.failures]),
  );
  fromStats(
    "hindsight_llm_tokens_total",
    "Language-model tokens by tier, model and kind (prompt, completion).",
    ["tier", "model", "kind"],
    (llm) =>
      tiers(llm).flatMap(({ tier, model, counts }) => [
        [{ tier, model, kind: "prompt" }, counts.prompt_tokens],
        [{ tier, model, kind: "completion" }, counts.completion_tokens],
      ]),
  );
  fromStats(
    "hindsight_llm_fallbacks_total",
    "Times a feature took its extractive fallback because the language model failed, by purpose.",
    ["purpose"],
    (llm) => Object.entries(llm.fallbacks).map(([purpose, count]) => [{ purpose }, count]),
  );
  fromStats(
    "hindsight_llm_breaker_opens_total",
    "Times the language model's circuit breaker opened, re-openings after a failed trial included.",
    [],
    (llm) => (llm.breaker ? [[{}, llm.breaker.opens]] : []),
  );
  fromStats(
    "hindsight_llm_breaker_skipped_total",
    "Tasks that took their fallback without calling the language model: its breaker was open.",
    [],
    (llm) => (llm.breaker ? [[{}, llm.breaker.skipped]] : []),
  );
  new Gauge({
    name: "hindsight_llm_breaker_open",
    help: "1 while the language model's circuit breaker is open or half-open (features take their fallbacks without calling it), else 0.",
    registers: [registry],
    async collect() {
      const stats = await countOnce();
      this.reset();
      if (!stats?.llm.breaker) return;
      this.set(["open", "half_open"].includes(stats.llm.breaker.state) ? 1 : 0);
    },
  });
}

function modelOf(llm: LlmStats, tier: "main" | "cheap"): string {
  return (tier === "main" ? llm.model : llm.summary_model) ?? "none";
}
