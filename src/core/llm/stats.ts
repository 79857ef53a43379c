/** What `stats` says about the language model: which one, what it has cost, its breaker. */
import type { LanguageModel } from "../ports.js";
import type { LlmStats } from "../types.js";
import type { LlmFallbacks } from "./fallbacks.js";

export function llmStats(llm: LanguageModel | undefined, fallbacks: LlmFallbacks): LlmStats {
  const zero = { requests: 0, failures: 0, prompt_tokens: 0, completion_tokens: 0 };
  if (!llm) {
    return {
      provider: "none",
      model: null,
      summary_model: null,
      ...zero,
      tiers: { main: zero, cheap: zero },
      fallbacks: fallbacks.snapshot(),
    };
  }
  const { requests, failures, prompt_tokens, completion_tokens, tiers } = llm.usage();
  const totals = { requests, failures, prompt_tokens, completion_tokens };
  return {
    provider: llm.id.split(":")[0] ?? llm.id,
    model: llm.models?.main ?? llm.id,
    summary_model: llm.models?.cheap ?? llm.id,
    ...totals,
    // A model that does not split its counts by tier is reported under the main tier.
    tiers: tiers ?? { main: totals, cheap: zero },
    fallbacks: fallbacks.snapshot(),
    ...(llm.breaker ? { breaker: llm.breaker.stats() } : {}),
  };
}
