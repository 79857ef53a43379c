/**
 * When the language model fails, features fall back to their deterministic result rather
 * than lose data; each fallback is logged and counted here so it never goes unnoticed
 * (`stats.llm.fallbacks`, the `hindsight_llm_fallbacks_total` metric).
 */
import type { Logger } from "../ports.js";

export class LlmFallbacks {
  private readonly counts = new Map<string, number>();

  constructor(private readonly logger: Logger) {}

  record(purpose: string, error: unknown, fields: Record<string, unknown> = {}): void {
    this.counts.set(purpose, (this.counts.get(purpose) ?? 0) + 1);
    this.logger.warn(`language model failed; ${purpose} falls back to its deterministic form`, {
      ...fields,
      error: error instanceof Error ? error.message : String(error),
    });
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }
}
