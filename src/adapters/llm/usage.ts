/** Counts of a language model's calls and tokens, per tier, since the process started. */
import type { LlmCounts, LlmTier, LlmUsage, TokenUsage } from "../../core/ports.js";

const zero = (): LlmCounts => ({
  requests: 0,
  failures: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
});

export class UsageMeter {
  private readonly tiers: Record<LlmTier, LlmCounts> = { main: zero(), cheap: zero() };

  succeeded(tier: LlmTier, usage: TokenUsage): void {
    const counts = this.tiers[tier];
    counts.requests++;
    counts.prompt_tokens += usage.prompt_tokens;
    counts.completion_tokens += usage.completion_tokens;
  }

  failed(tier: LlmTier): void {
    this.tiers[tier].requests++;
    this.tiers[tier].failures++;
  }

  snapshot(): LlmUsage {
    const total = zero();
    for (const counts of Object.values(this.tiers)) {
      total.requests += counts.requests;
      total.failures += counts.failures;
      total.prompt_tokens += counts.prompt_tokens;
      total.completion_tokens += counts.completion_tokens;
    }
    return { ...total, tiers: { main: { ...this.tiers.main }, cheap: { ...this.tiers.cheap } } };
  }
}
