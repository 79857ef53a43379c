/**
 * Consolidation: once a task type (within one user and agent scope) has enough episodes not
 * yet consolidated, 1–3 patterns are drawn from them into semantic memories that cite their
 * episodes. With a language model it extracts the patterns; without one, or when it fails,
 * counting does (see statistical). Patterns go through deduplication and superseding like
 * any new knowledge, and the episodes are marked so they are never consolidated twice.
 */
import { randomUUID } from "node:crypto";
import { embeddingText } from "../memories/embedding-text.js";
import type { NewSemantic } from "../memories/ports.js";
import { searchText } from "../recall/search-text.js";
import { PRIVATE } from "../sharing/types.js";
import { type LifecycleDeps, withFallback } from "./deps.js";
import { addKnowledge } from "./knowledge.js";
import { extractPatterns } from "./llm-tasks.js";
import type { EpisodeGroup, GroupEpisode } from "./ports.js";
import { type Pattern, statisticalPatterns } from "./statistical.js";

export interface ConsolidatedMemory {
  id: string;
  key: string;
  value: string;
  sources: string[];
}

export interface ConsolidatedGroup {
  task_type: string;
  user_id: string | null;
  agent_id: string | null;
  episodes: number;
  method: "llm" | "statistical";
}

export interface ConsolidateResult {
  created: ConsolidatedMemory[];
  updated: ConsolidatedMemory[];
  merged: number;
  superseded: string[];
  consolidated_episodes: number;
  groups: ConsolidatedGroup[];
}

async function patternsFor(
  deps: LifecycleDeps,
  group: EpisodeGroup,
  window: readonly GroupEpisode[],
  fresh: readonly GroupEpisode[],
): Promise<{ patterns: Pattern[]; method: "llm" | "statistical" }> {
  const extracted = await withFallback(deps, "consolidation", (llm) =>
    extractPatterns(llm, group.task_type, fresh),
  );
  if (extracted) {
    return {
      method: "llm",
      patterns: extracted.map((p) => ({
        key_text: p.rule,
        value_text: p.advice,
        sources: p.sources,
        confidence: Number(Math.max(0.1, p.sources.length / fresh.length).toFixed(3)),
        kind: "llm",
      })),
    };
  }
  // Counting covers the whole recent window, so a newer statistic supersedes the older one.
  return { method: "statistical", patterns: statisticalPatterns(group.task_type, window) };
}

/** A consolidation that created nothing (yet). */
export function emptyConsolidation(): ConsolidateResult {
  return {
    created: [],
    updated: [],
    merged: 0,
    superseded: [],
    consolidated_episodes: 0,
    groups: [],
  };
}

export async function consolidate(
  deps: LifecycleDeps,
  taskType: string | undefined,
  at: Date,
): Promise<ConsolidateResult> {
  const { consolidation } = deps.settings;
  const result = emptyConsolidation();
  const groups = await deps.consolidation.pendingEpisodeGroups(
    consolidation.minEpisodes,
    taskType,
    consolidation.maxGroups,
  );
  for (const group of groups) {
    const window = await deps.consolidation.groupEpisodes(group, consolidation.maxEpisodes);
    const fresh = window.filter((episode) => !episode.consolidated);
    if (fresh.length === 0) continue;
    const { patterns, method } = await patternsFor(deps, group, window, fresh);
    const kept: string[] = [];
    for (const pattern of patterns) {
      const [embedding] = await deps.embed([embeddingText("semantic", pattern)]);
      const row: NewSemantic = {
        id: randomUUID(),
        key_text: pattern.key_text,
        value_text: pattern.value_text,
        task_type: group.task_type,
        confidence: pattern.confidence,
        created_at: at,
        updated_at: at,
        valid_from: at,
        valid_to: null,
        ...PRIVATE,
        metadata: {
          consolidation: {
            method,
            kind: pattern.kind,
            episodes: pattern.sources.length,
            ...(method === "llm" && deps.llm ? { model: deps.llm.id } : {}),
            ...(method === "statistical"
              ? { note: "counts and recurring words; no language model" }
              : {}),
          },
        },
        tags: ["consolidated"],
        source: "consolidation",
        subject: null,
        user_id: group.user_id,
        agent_id: group.agent_id,
        // Knowledge drawn from many episodes belongs to no single session.
        session_id: null,
        status: "active",
        embedding: embedding!,
        search_text: searchText([pattern.key_text, pattern.value_text, "consolidated"]),
        source_episode_ids: pattern.sources,
      };
      const added = await addKnowledge(deps, {
        row,
        reason: `consolidated from ${pattern.sources.length} ${group.task_type} episodes (${method})`,
        details: { method, kind: pattern.kind, episodes: pattern.sources.length },
      });
      const entry = {
        id: added.id,
        key: pattern.key_text,
        value: pattern.value_text,
        sources: pattern.sources,
      };
      if (added.merged_into) {
        // Report the knowledge as it now reads, after the merge.
        const [merged] = await deps.memories.getMany("semantic", [added.id]);
        if (merged?.layer === "semantic") {
          entry.key = merged.key_text;
          entry.value = merged.value_text;
        }
        result.updated.push(entry);
        result.merged += 1;
      } else {
        result.created.push(entry);
      }
      result.superseded.push(...(added.superseded ?? []));
      kept.push(added.id);
    }
    await deps.consolidation.markConsolidated(
      fresh.map((episode) => episode.id),
      kept,
      at,
    );
    result.consolidated_episodes += fresh.length;
    result.groups.push({
      task_type: group.task_type,
      user_id: group.user_id,
      agent_id: group.agent_id,
      episodes: fresh.length,
      method,
    });
    deps.logger.info("consolidated episodes", {
      task_type: group.task_type,
      episodes: fresh.length,
      method,
      patterns: patterns.length,
    });
  }
  return result;
}
