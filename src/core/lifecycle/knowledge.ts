/**
 * Adding knowledge without piling it up: a new semantic memory that says what a current one
 * of the same scope already says merges into it; one that contradicts current ones supersedes
 * them (they get valid_to and stay in history). Used by storeSemantic and by consolidation.
 */
import { wordTokens } from "../../text/tokenize.js";
import { embeddingText } from "../memories/embedding-text.js";
import type { NewSemantic } from "../memories/ports.js";
import { searchText } from "../recall/search-text.js";
import { mayOverride } from "../sharing/types.js";
import { calibratedSimilarity } from "../similarity.js";
import type { JsonObject } from "../types.js";
import { type LifecycleDeps, withFallback } from "./deps.js";
import { type Fact, findContradicted, mergeFacts } from "./llm-tasks.js";
import type { SemanticNeighbour } from "./ports.js";

/** Neighbours compared with a new memory. */
const NEIGHBOURS = 5;
/** Neighbours this similar (or with the same key) are shown to the model for contradictions. */
const CONTRADICTION_CANDIDATE_SIMILARITY = 0.5;
const MAX_TAGS = 32;

export interface AddedKnowledge {
  /** The memory that now holds the knowledge: the new one, or the one it merged into. */
  id: string;
  merged_into?: string;
  superseded?: string[];
}

export interface KnowledgeRequest {
  row: NewSemantic;
  /** A caller-chosen id: a retry of a merged request merges nothing twice. */
  requestId?: string | undefined;
  /** Why it is written ("stored", "consolidated from …"), for its history. */
  reason: string;
  details?: JsonObject;
}

const normalised = (text: string) => wordTokens(text).join(" ");

/**
 * Shared knowledge merges only into what the same agent wrote from the same source: a merge
 * keeps the target's provenance, so merging another writer's words in would misattribute them.
 * (Private knowledge is compared within one agent's scope already.)
 */
function sameWriter(row: NewSemantic, neighbour: SemanticNeighbour): boolean {
  return (
    row.shared_group === null ||
    (neighbour.agent_id === row.agent_id && neighbour.source === row.source)
  );
}

/** Deterministic rule: same normalised key, different normalised value. */
function contradictsByRule(row: NewSemantic, neighbour: SemanticNeighbour): boolean {
  return neighbour.same_key && normalised(neighbour.value_text) !== normalised(row.value_text);
}

async function contradicted(
  deps: LifecycleDeps,
  row: NewSemantic,
  neighbours: readonly SemanticNeighbour[],
): Promise<{ ids: string[]; rule: string }> {
  const candidates = neighbours.filter(
    (n) => n.same_key || n.similarity >= CONTRADICTION_CANDIDATE_SIMILARITY,
  );
  if (candidates.length > 0) {
    const verdicts = await withFallback(deps, "contradiction detection", (llm) =>
      findContradicted(llm, row, candidates),
    );
    if (verdicts) {
      return { ids: candidates.filter((_, i) => verdicts[i]).map((n) => n.id), rule: "llm" };
    }
  }
  return {
    ids: neighbours.filter((n) => contradictsByRule(row, n)).map((n) => n.id),
    rule: "same key, different value",
  };
}

/** The richer of two texts: the longer key and value, keeping the existing one on ties. */
function richer(existing: Fact, incoming: Fact): Fact {
  const length = (fact: Fact) => fact.key_text.length + fact.value_text.length;
  return length(incoming) > length(existing) ? incoming : existing;
}

/** Two independent supports: 1 − (1 − a)(1 − b). */
export function unitedConfidence(a: number, b: number): number {
  return Number((1 - (1 - a) * (1 - b)).toFixed(4));
}

async function mergeInto(
  deps: LifecycleDeps,
  target: SemanticNeighbour,
  request: KnowledgeRequest,
): Promise<boolean> {
  const { row } = request;
  const fromModel = await withFallback(deps, "merging near-duplicates", (llm) =>
    mergeFacts(llm, target, row),
  );
  const text = fromModel ?? richer(target, row);
  const changed = text.key_text !== target.key_text || text.value_text !== target.value_text;
  const [embedding] = await deps.embed([embeddingText("semantic", changed ? text : target)]);
  const tags = [...new Set([...target.tags, ...row.tags])].slice(0, MAX_TAGS);
  return deps.knowledge.mergeSemantic({
    target_id: target.id,
    key_text: text.key_text,
    value_text: text.value_text,
    embedding: embedding!,
    search_text: searchText([text.key_text, text.value_text, ...tags]),
    confidence: unitedConfidence(target.confidence, row.confidence),
    tags,
    metadata: { ...row.metadata, ...target.metadata },
    source_episode_ids: row.source_episode_ids,
    at: row.created_at,
    reason: `a near-duplicate (cosine ${target.similarity.toFixed(3)}) was merged in`,
    details: {
      ...(request.requestId ? { request_id: request.requestId } : {}),
      similarity: Number(target.similarity.toFixed(4)),
      method: fromModel ? "llm" : "richer text kept",
      previous: {
        key_text: target.key_text,
        value_text: target.value_text,
        confidence: target.confidence,
      },
      incoming: { key_text: row.key_text, value_text: row.value_text, confidence: row.confidence },
      source_episode_ids: row.source_episode_ids,
      origin: request.reason,
    },
  });
}

export async function addKnowledge(
  deps: LifecycleDeps,
  request: KnowledgeRequest,
): Promise<AddedKnowledge> {
  const { row, requestId } = request;
  if (requestId) {
    const merged = await deps.knowledge.mergedRequest(requestId);
    if (merged) return { id: merged, merged_into: merged };
  }
  const nearest = await deps.knowledge.semanticNeighbours({
    embedding: row.embedding,
    key_text: row.key_text,
    task_type: row.task_type,
    user_id: row.user_id,
    agent_id: row.agent_id,
    shared_group: row.shared_group,
    limit: NEIGHBOURS,
  });
  // Thresholds (dedupSimilarity, contradiction candidates) are on the reference scale.
  const found = nearest.map((n) => ({
    ...n,
    similarity: calibratedSimilarity(n.similarity, deps.similarity),
  }));
  // The same id stored before: a retried request, stored once.
  if (found.some((n) => n.id === row.id)) return { id: row.id };
  // Quarantined knowledge touches nothing until it is confirmed, and shared knowledge never
  // rewrites what a more trusted source said: a poisoned write stays beside the truth.
  const neighbours =
    row.review_status === "quarantined"
      ? []
      : found.filter(
          (n) => row.source_trust === null || mayOverride(row.source_trust, n.source_trust),
        );
  const superseded = await contradicted(deps, row, neighbours);
  if (superseded.ids.length === 0) {
    const duplicate = neighbours.find(
      (n) =>
        (n.similarity >= deps.settings.dedupSimilarity ||
          (n.same_key && normalised(n.value_text) === normalised(row.value_text))) &&
        sameWriter(row, n),
    );
    if (duplicate && (await mergeInto(deps, duplicate, request))) {
      deps.logger.info("semantic memory merged into a near-duplicate", {
        into: duplicate.id,
        similarity: duplicate.similarity,
      });
      return { id: duplicate.id, merged_into: duplicate.id };
    }
  }
  await deps.knowledge.insertSemantic(row, {
    at: row.created_at,
    reason: request.reason,
    details: {
      ...request.details,
      ...(superseded.ids.length > 0 ? { rule: superseded.rule } : {}),
    },
    supersedes: superseded.ids,
  });
  if (superseded.ids.length === 0) return { id: row.id };
  deps.logger.info("semantic memory superseded older ones", {
    id: row.id,
    superseded: superseded.ids,
    rule: superseded.rule,
  });
  return { id: row.id, superseded: superseded.ids };
}
