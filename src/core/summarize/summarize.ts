/**
 * The summarize operation: memories given by id, or recalled for a query, compressed into a
 * summary within a token budget (summarize-memories); or a working-memory session compressed
 * into its four-part summary.
 */
import type { LlmFallbacks } from "../llm/fallbacks.js";
import type { MemoryRecords, StoredMemory } from "../memories/ports.js";
import { memoriesById } from "../memories/read.js";
import type { LanguageModel, SimilarityScale } from "../ports.js";
import type { RecallResponse } from "../recall/recall.js";
import { LIMITS, SummarizeInput } from "../schemas.js";
import { validate } from "../validate.js";
import { renderSummary } from "../working/context.js";
import type { WorkingContext } from "../working/types.js";
import { type SummaryResult, summarizeMemories, type TokenCounter } from "./summarize-memories.js";

export interface SummarizeOperationDeps {
  memories: MemoryRecords;
  tokens: TokenCounter;
  llm?: LanguageModel | undefined;
  fallbacks: LlmFallbacks;
  embed(texts: string[]): Promise<Float32Array[]>;
  similarity?: SimilarityScale | undefined;
  recall(input: unknown): Promise<RecallResponse>;
  /** Compresses a working-memory session; fails when working memory is not configured. */
  compressSession(input: { session_id: string; agent_id?: string }): Promise<WorkingContext>;
}

export async function summarize(
  deps: SummarizeOperationDeps,
  input: unknown,
): Promise<SummaryResult> {
  const request = validate(SummarizeInput, input);
  if (request.session_id) {
    const session = await deps.compressSession({
      session_id: request.session_id,
      ...(request.agent_id === undefined ? {} : { agent_id: request.agent_id }),
    });
    const summary = session.summary ? renderSummary(session.summary) : "";
    return {
      summary,
      tokens: deps.tokens.count(summary),
      max_tokens: request.max_tokens,
      memory_ids: [],
      groups: [],
      method: "working_memory",
      session,
    };
  }
  let memories: StoredMemory[];
  if (request.memory_ids) {
    memories = await memoriesById(deps.memories, request.memory_ids, "memory_ids");
  } else {
    const { results } = await deps.recall({
      query_text: request.query_text,
      memory_layer: "all",
      top_k: LIMITS.topK,
      ...(request.user_id === undefined ? {} : { user_id: request.user_id }),
      ...(request.agent_id === undefined ? {} : { agent_id: request.agent_id }),
    });
    memories = results;
  }
  return summarizeMemories(memories, request.max_tokens, {
    tokens: deps.tokens,
    llm: deps.llm,
    fallbacks: deps.fallbacks,
    embed: deps.embed,
    similarity: deps.similarity,
  });
}
