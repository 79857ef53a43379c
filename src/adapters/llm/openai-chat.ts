/**
 * Language model over any OpenAI-compatible `POST {baseUrl}/chat/completions` endpoint:
 * OpenAI, DeepSeek, Qwen (DashScope), Ollama, vLLM, LM Studio. Only the common subset of the
 * API is sent. Optional parameters a server refuses with a 400 naming them (`response_format`
 * on some local servers, `max_tokens` and `temperature` on reasoning models) are adapted once
 * and the adaptation is remembered for the life of the adapter.
 */
import { z } from "zod";
import { ErrorCode, HindsightError } from "../../core/errors.js";
import type {
  ChatRequest,
  ChatResponse,
  LanguageModel,
  LlmTier,
  LlmUsage,
  Logger,
} from "../../core/ports.js";
import { excerpt, PostFailure, postJsonWithRetry, resolveEndpoint } from "../retrying-post.js";
import { UsageMeter } from "./usage.js";

const optionsSchema = z.object({
  baseUrl: z.string().min(1),
  apiKey: z.string().min(1).optional(),
  model: z.string().min(1),
  /** The cheaper model for summaries; the main model when absent. */
  summaryModel: z.string().min(1).optional(),
  timeoutMs: z.number().int().positive().default(60_000),
  maxRetries: z.number().int().min(0).max(10).default(3),
});

export type OpenAIChatOptions = z.input<typeof optionsSchema>;

export interface OpenAIChatDeps {
  logger?: Logger;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

const responseSchema = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullable().optional() }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
  usage: z
    .object({
      prompt_tokens: z.number().nonnegative().optional(),
      completion_tokens: z.number().nonnegative().optional(),
    })
    .nullable()
    .optional(),
});

/**
 * Request parameters some servers reject, and how to do without each: a 400 that names the
 * parameter switches to the fallback for every later request.
 */
const ADAPTABLE = {
  response_format: { pattern: /response_format|json_object/i },
  max_tokens: { pattern: /max_tokens/i },
  temperature: { pattern: /temperature/i },
} as const;
type Adaptable = keyof typeof ADAPTABLE;

/** Reasoning models (DeepSeek-R1, Qwen3 on Ollama) think aloud before answering. */
function withoutThinking(text: string): string {
  return text.replace(/<think>[\s\S]*?<\/think>/gi, "").trim();
}

export function createOpenAIChatModel(
  options: OpenAIChatOptions,
  deps: OpenAIChatDeps = {},
): LanguageModel & { readonly models: Record<LlmTier, string> } {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HindsightError(
      ErrorCode.CONFIG_INVALID,
      `openai chat model: ${issue?.path.join(".") ?? "options"}: ${issue?.message ?? "invalid"}`,
    );
  }
  const { apiKey, model, timeoutMs, maxRetries } = parsed.data;
  const models: Record<LlmTier, string> = {
    main: model,
    cheap: parsed.data.summaryModel ?? model,
  };
  const endpoint = resolveEndpoint(parsed.data.baseUrl, "chat/completions", "openai chat model");
  const logger = deps.logger;
  const post = {
    endpoint,
    apiKey,
    timeoutMs,
    maxRetries,
    logger,
    label: "chat completion",
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
  };
  const meter = new UsageMeter();
  /** Parameters this server has refused; sent without (or in their other form) from then on. */
  const refused = new Set<Adaptable>();

  function payload(request: ChatRequest): Record<string, unknown> {
    const body: Record<string, unknown> = {
      model: models[request.tier],
      messages: request.messages,
      stream: false,
    };
    if (request.json && !refused.has("response_format")) {
      body.response_format = { type: "json_object" };
    }
    if (request.maxTokens !== undefined) {
      // Reasoning models accept only the newer name.
      body[refused.has("max_tokens") ? "max_completion_tokens" : "max_tokens"] = request.maxTokens;
    }
    if (request.temperature !== undefined && !refused.has("temperature")) {
      body.temperature = request.temperature;
    }
    return body;
  }

  /** The parameter a 400 complains about, if it is one we can do without and sent. */
  function refusedParameter(failure: PostFailure, sent: Record<string, unknown>): Adaptable | null {
    if (failure.status !== 400 && failure.status !== 422) return null;
    for (const name of Object.keys(ADAPTABLE) as Adaptable[]) {
      if (refused.has(name) || !(name in sent)) continue;
      if (ADAPTABLE[name].pattern.test(failure.body)) return name;
    }
    return null;
  }

  async function send(request: ChatRequest): Promise<string> {
    // Each refusal adapts one parameter; there are only so many.
    for (let adaptations = 0; ; adaptations++) {
      const body = payload(request);
      try {
        return await postJsonWithRetry(post, body);
      } catch (error) {
        if (!(error instanceof PostFailure)) throw error;
        const parameter = refusedParameter(error, body);
        if (parameter === null || adaptations >= Object.keys(ADAPTABLE).length) throw error;
        refused.add(parameter);
        logger?.warn(`the model server refused ${parameter}; retrying without it`, {
          endpoint,
          model: body.model,
          reason: error.reason,
        });
      }
    }
  }

  function parse(body: string, tier: LlmTier): ChatResponse {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new Error(`response is not JSON: ${excerpt(body, apiKey)}`);
    }
    const result = responseSchema.safeParse(json);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new Error(`unexpected response shape at ${issue?.path.join(".")}: ${issue?.message}`);
    }
    const [choice] = result.data.choices;
    const text = withoutThinking(choice?.message.content ?? "");
    if (text === "") {
      throw new Error(`empty answer (finish_reason ${choice?.finish_reason ?? "unknown"})`);
    }
    return {
      text,
      model: result.data.model ?? models[tier],
      usage: {
        prompt_tokens: result.data.usage?.prompt_tokens ?? 0,
        completion_tokens: result.data.usage?.completion_tokens ?? 0,
      },
    };
  }

  return {
    id: `openai:${model}`,
    models,
    async chat(request) {
      const started = Date.now();
      try {
        const response = parse(await send(request), request.tier);
        meter.succeeded(request.tier, response.usage);
        logger?.debug("chat completion", {
          purpose: request.purpose,
          model: response.model,
          ...response.usage,
          ms: Date.now() - started,
        });
        return response;
      } catch (error) {
        meter.failed(request.tier);
        const reason = error instanceof Error ? error.message : String(error);
        logger?.error("language model request failed", {
          endpoint,
          model: models[request.tier],
          purpose: request.purpose,
          reason,
        });
        throw new HindsightError(
          ErrorCode.LLM_FAILED,
          `chat completion at ${endpoint} (${models[request.tier]}, for ${request.purpose}) failed: ${reason}`,
          {
            details: {
              endpoint,
              model: models[request.tier],
              purpose: request.purpose,
              ...(error instanceof PostFailure && error.status !== undefined
                ? { status: error.status }
                : {}),
            },
            cause: error,
          },
        );
      }
    },
    usage: (): LlmUsage => meter.snapshot(),
  };
}
