/**
 * Extractive summaries of memories within a token budget: memories are grouped by topic (task
 * type, or knowledge), each group gets a header with its outcomes, and items are taken from the
 * groups in turn — best first — until the budget is spent. No LLM is needed; the lifecycle
 * work replaces the wording with a model's when one is configured.
 */
import type { StoredMemory } from "./ports.js";
import type { WorkingContext } from "./working/types.js";

export interface TokenCounter {
  count(text: string): number;
  /** The longest prefix of `text` of at most `tokens` tokens. */
  truncate(text: string, tokens: number): string;
}

export interface SummaryGroup {
  topic: string;
  memory_ids: string[];
}

export interface SummaryResult {
  summary: string;
  tokens: number;
  max_tokens: number;
  memory_ids: string[];
  groups: SummaryGroup[];
  /** extractive: memories by id or query; working_memory: a session compressed (session_id). */
  method: "extractive" | "working_memory";
  /** The compressed session, for method working_memory. */
  session?: WorkingContext;
}

interface Group {
  topic: string;
  header: string;
  items: { id: string; line: string }[];
}

function topicOf(memory: StoredMemory): string {
  if (memory.layer === "episodic") return memory.task_type;
  return memory.task_type ? `${memory.task_type} knowledge` : "knowledge";
}

function lineOf(memory: StoredMemory): string {
  if (memory.layer === "episodic") {
    const day = memory.occurred_at.toISOString().slice(0, 10);
    return `- ${day} ${memory.outcome}: ${memory.summary}`;
  }
  return `- ${memory.key_text} → ${memory.value_text}`;
}

function headerOf(topic: string, members: StoredMemory[]): string {
  const outcomes = new Map<string, number>();
  for (const memory of members) {
    if (memory.layer === "episodic")
      outcomes.set(memory.outcome, (outcomes.get(memory.outcome) ?? 0) + 1);
  }
  const detail = [...outcomes].map(([outcome, count]) => `${count} ${outcome}`).join(", ");
  return `${topic} (${members.length}${detail ? `: ${detail}` : ""})`;
}

function groupMemories(memories: readonly StoredMemory[]): Group[] {
  const byTopic = new Map<string, StoredMemory[]>();
  for (const memory of memories) {
    const topic = topicOf(memory);
    byTopic.set(topic, [...(byTopic.get(topic) ?? []), memory]);
  }
  // Larger groups first; ties keep the order of their best (first) member.
  return [...byTopic]
    .sort(([, a], [, b]) => b.length - a.length)
    .map(([topic, members]) => ({
      topic,
      header: headerOf(topic, members),
      items: members.map((memory) => ({ id: memory.id, line: lineOf(memory) })),
    }));
}

/** Smallest cut line worth keeping. */
const MIN_TRUNCATED_TOKENS = 4;

/** Items in turn from each group (first of every group, then second…), best first. */
function interleave(groups: readonly Group[]): { group: Group; id: string; line: string }[] {
  const order: { group: Group; id: string; line: string }[] = [];
  const longest = Math.max(0, ...groups.map((group) => group.items.length));
  for (let round = 0; round < longest; round++) {
    for (const group of groups) {
      const item = group.items[round];
      if (item) order.push({ group, ...item });
    }
  }
  return order;
}

/**
 * @param memories best first
 */
export function extractiveSummary(
  memories: readonly StoredMemory[],
  maxTokens: number,
  tokens: TokenCounter,
): SummaryResult {
  const groups = groupMemories(memories);
  const chosen = new Map<Group, { id: string; line: string }[]>();
  const render = (candidate: Map<Group, { id: string; line: string }[]>) =>
    groups
      .filter((group) => candidate.has(group))
      .map((group) => [group.header, ...candidate.get(group)!.map((item) => item.line)].join("\n"))
      .join("\n");
  const withItem = (group: Group, item: { id: string; line: string }) => {
    const next = new Map(chosen);
    next.set(group, [...(chosen.get(group) ?? []), item]);
    return next;
  };
  for (const { group, id, line } of interleave(groups)) {
    const whole = withItem(group, { id, line });
    if (tokens.count(render(whole)) <= maxTokens) {
      chosen.set(group, whole.get(group)!);
      continue;
    }
    // Does not fit whole: keep the head of it if enough room is left, then stop.
    const room = maxTokens - tokens.count(render(withItem(group, { id, line: "" })));
    if (room >= MIN_TRUNCATED_TOKENS) {
      const cut = withItem(group, { id, line: `${tokens.truncate(line, room - 1)}…` });
      if (tokens.count(render(cut)) <= maxTokens) chosen.set(group, cut.get(group)!);
    }
    break;
  }
  const summary = render(chosen);
  const included = groups.filter((group) => chosen.has(group));
  return {
    summary,
    tokens: tokens.count(summary),
    max_tokens: maxTokens,
    memory_ids: included.flatMap((group) => chosen.get(group)!.map((item) => item.id)),
    groups: included.map((group) => ({
      topic: group.topic,
      memory_ids: chosen.get(group)!.map((item) => item.id),
    })),
    method: "extractive",
  };
}
