/**
 * When the language model fails, features fall back to their deterministic result rather
 * than lose data; each fallback is logged and counted here so it never goes unnoticed
 * (`stats.llm.fallbacks`, the `hindsight_llm_fallbacks_total` metric). Fallbacks taken because
 * the circuit breaker is open are counted too, but logged at debug only.
 */
import type { Logger } from "../ports.js";
import { skippedByBreaker } from "./breaker.js";

export class LlmFallbacks {
  private readonly counts = new Map<string, number>();

  constructor(private readonly logger: Logger) {}

  record(purpose: string, error: unknown, fields: Record<string, unknown> = {}): void {
    this.counts.set(purpose, (this.counts.get(purpose) ?? 0) + 1);
    const message = `language model failed; ${purpose} falls back to its deterministic form`;
    const logged = { ...fields, error: error instanceof Error ? error.message : String(error) };
    // While the circuit breaker is open every job lands here: its opening was warned once.
    if (skippedByBreaker(error)) this.logger.debug(message, logged);
    else this.logger.warn(message, logged);
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }
}
