import type { LlmConfig } from "../../config/schema.js";
import { DEFAULT_BREAKER, guardLanguageModel } from "../../core/llm/breaker.js";
import type { Clock, LanguageModel, Logger } from "../../core/ports.js";
import { systemClock } from "../clock.js";
import { createOpenAIChatModel } from "./openai-chat.js";

/**
 * The configured language model, or undefined for provider `none`. Says which on stderr. The
 * model comes behind its circuit breaker (core/llm/breaker), which reads `clock`.
 */
export function createLanguageModel(
  config: LlmConfig,
  logger: Logger,
  clock: Clock = systemClock,
): LanguageModel | undefined {
  if (config.provider === "none") {
    logger.info(
      "no language model (HINDSIGHT_LLM_PROVIDER=none): summaries are extractive; " +
        "set HINDSIGHT_LLM_BASE_URL and HINDSIGHT_LLM_MODEL to use one",
    );
    return undefined;
  }
  const model = createOpenAIChatModel(
    {
      baseUrl: config.baseUrl,
      model: config.model,
      timeoutMs: config.timeoutMs,
      maxRetries: config.maxRetries,
      ...(config.apiKey ? { apiKey: config.apiKey } : {}),
      ...(config.summaryModel ? { summaryModel: config.summaryModel } : {}),
    },
    { logger },
  );
  logger.info(
    `using language model ${model.models.main} (summaries: ${model.models.cheap}) at ${config.baseUrl}`,
  );
  return guardLanguageModel(model, { ...DEFAULT_BREAKER, ...config.breaker }, clock, logger);
}
