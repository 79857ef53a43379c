/**
 * Structured output from a language model that may not follow instructions: local models
 * wrap JSON in prose or code fences, leave trailing commas, or answer in the wrong shape. The
 * answer is parsed leniently, validated against a schema, and on failure the model is asked
 * once more with the validation error; a caller that still gets nothing usable falls back.
 */
import type { z } from "zod";
import { ErrorCode, HindsightError } from "../errors.js";
import type { ChatMessage, ChatRequest, LanguageModel } from "../ports.js";

export interface JsonCompletion<T> {
  value: T;
  /** Model calls it took: 1, or more when an answer had to be corrected. */
  attempts: number;
}

/** Extracts the first JSON object or array from a model's answer, tolerating common damage. */
export function parseLenientJson(text: string): unknown {
  const unfenced = text.replace(/```(?:json)?\s*([\s\S]*?)```/i, "$1").trim();
  const start = unfenced.search(/[[{]/);
  if (start < 0) throw new SyntaxError("no JSON object in the answer");
  const open = unfenced[start]!;
  const close = open === "{" ? "}" : "]";
  const end = unfenced.lastIndexOf(close);
  if (end <= start) throw new SyntaxError("unterminated JSON in the answer");
  const candidate = unfenced.slice(start, end + 1);
  try {
    return JSON.parse(candidate);
  } catch {
    // Trailing commas are the most common damage from small models.
    return JSON.parse(candidate.replace(/,\s*([}\]])/g, "$1"));
  }
}

/**
 * Asks for JSON matching `schema`; retries with the parse or validation error up to
 * `maxAttempts` calls in all. Throws LLM_FAILED when no answer fits: callers keep their data
 * and take their fallback. A model behind a circuit breaker (`llm.breaker`) runs the whole
 * exchange as one task of the breaker, which fails at once while it is open.
 */
export function completeJson<S extends z.ZodType>(
  llm: LanguageModel,
  request: Omit<ChatRequest, "json">,
  schema: S,
  maxAttempts = 2,
): Promise<JsonCompletion<z.output<S>>> {
  const task = () => exchange(llm, request, schema, maxAttempts);
  return llm.breaker ? llm.breaker.run(request.purpose, task) : task();
}

async function exchange<S extends z.ZodType>(
  llm: LanguageModel,
  request: Omit<ChatRequest, "json">,
  schema: S,
  maxAttempts: number,
): Promise<JsonCompletion<z.output<S>>> {
  const messages: ChatMessage[] = [...request.messages];
  let reason = "";
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const response = await llm.chat({ ...request, messages, json: true });
    try {
      const parsed = schema.safeParse(parseLenientJson(response.text));
      if (parsed.success) return { value: parsed.data, attempts: attempt };
      const issue = parsed.error.issues[0];
      reason = `${issue?.path.map(String).join(".") || "answer"}: ${issue?.message ?? "does not match the schema"}`;
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
    }
    messages.push(
      { role: "assistant", content: response.text },
      {
        role: "user",
        content: `That answer could not be used (${reason}). Reply with only the corrected JSON object.`,
      },
    );
  }
  throw new HindsightError(
    ErrorCode.LLM_FAILED,
    `${llm.id} gave no usable answer for ${request.purpose} after ${maxAttempts} attempts: ${reason}`,
    { details: { purpose: request.purpose } },
  );
}
