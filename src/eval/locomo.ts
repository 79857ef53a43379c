/**
 * LoCoMo retrieval (Maharana et al., ACL 2024): every turn of a conversation is stored as an
 * episodic memory in a bank of its own, every question is recalled against it, and recall@k
 * is the share of the question's evidence turns among the top k.
 */
import { z } from "zod";
import type { MemoryLayer } from "../core/types.js";
import { BankPool, type EvalRuntime, queryTimeField } from "./banks.js";
import { parseData, readJson } from "./data.js";
import { fillMissingTimes, parseLocomoDateTime } from "./dates.js";
import { GroupedMeans, MeanAccumulator, recallAt, splitLabels } from "./metrics.js";
import { noProgress, type Progress } from "./progress.js";
import { LatencyRecorder, secondsSince } from "./timing.js";

const Turn = z.looseObject({
  speaker: z.string().trim().min(1, "must not be empty"),
  dia_id: z.string().trim().min(1, "must not be empty"),
  text: z.string(),
  blip_caption: z.string().nullish(),
});

const Question = z.looseObject({
  question: z.string().trim().min(1, "must not be empty"),
  evidence: z.array(z.union([z.string(), z.number()])).nullish(),
  category: z.union([z.number(), z.string()]).nullish(),
});

const Sample = z.looseObject({
  sample_id: z.union([z.string(), z.number()]).nullish(),
  conversation: z.record(z.string(), z.unknown()),
  qa: z.array(Question).default([]),
});

const Turns = z.array(Turn);

import { CONTEXT_TURNS, type LocomoReferenceTime } from "./options.js";

export { CONTEXT_TURNS, type LocomoReferenceTime, REFERENCE_TIMES } from "./options.js";

export const LOCOMO_TASK_TYPE = "conversation";
const STORE_CHUNK = 100;
const LAYER: MemoryLayer = "episodic";

export interface LocomoTurn {
  dia_id: string;
  session: number;
  summary: string;
  occurred_at: Date;
}

export interface LocomoQuestion {
  question: string;
  category: string;
  evidence: string[];
}

export interface LocomoConversation {
  sample_id: string;
  turns: LocomoTurn[];
  questions: LocomoQuestion[];
  /** When the last session took place: the time the questions are asked. */
  reference_time: Date;
  /** Sessions whose date was missing or unreadable (they take the previous session's). */
  undated_sessions: number;
}

/** The text stored for a turn: `"<speaker>: <text>"`, plus the caption of a shared photo. */
export function turnSummary(turn: { speaker: string; text: string; blip_caption?: string | null }) {
  const caption = turn.blip_caption?.trim();
  return `${turn.speaker}: ${turn.text.trim()}${caption ? ` [shares ${caption}]` : ""}`;
}

export function turnContext(
  turns: readonly LocomoTurn[],
  index: number,
  count: number = CONTEXT_TURNS,
): string | undefined {
  if (count <= 0) return undefined;
  const session = turns[index]?.session;
  const before = turns
    .slice(Math.max(0, index - count), index)
    .filter((turn) => turn.session === session);
  return before.length > 0 ? before.map((turn) => turn.summary).join("\n") : undefined;
}

/** Reads samples of the LoCoMo-10 format (a list of samples, or one sample). */
export function parseLocomo(
  value: unknown,
  file: string,
  fallbackTime: Date = new Date(),
): LocomoConversation[] {
  const samples = Array.isArray(value) ? value : [value];
  return samples.map((raw, index) => {
    const prefix = Array.isArray(value) ? [index] : [];
    const sample = parseData(Sample, raw, file, prefix);
    const sessions = Object.entries(sample.conversation)
      .flatMap(([key, turns]) => {
        const match = /^session_(\d+)$/.exec(key);
        return match ? [{ key, number: Number(match[1]), turns }] : [];
      })
      .sort((a, b) => a.number - b.number);
    const dates = sessions.map(({ number }) => {
      const text = sample.conversation[`session_${number}_date_time`];
      return typeof text === "string" ? parseLocomoDateTime(text) : undefined;
    });
    const { times, missing } = fillMissingTimes(dates, fallbackTime);
    const turns: LocomoTurn[] = sessions.flatMap(({ key, number, turns: rawTurns }, position) => {
      const parsed = parseData(Turns, rawTurns, file, [...prefix, "conversation", key]);
      return parsed.map((turn) => ({
        dia_id: turn.dia_id.trim(),
        session: number,
        summary: turnSummary(turn),
        occurred_at: times[position]!,
      }));
    });
    const reference = times.reduce<Date | undefined>(
      (latest, time) => (latest && latest >= time ? latest : time),
      undefined,
    );
    return {
      sample_id: String(sample.sample_id ?? `sample-${index}`),
      turns,
      questions: sample.qa.map((qa) => ({
        question: qa.question,
        category: qa.category === null || qa.category === undefined ? "none" : String(qa.category),
        evidence: splitLabels(qa.evidence ?? []),
      })),
      reference_time: reference ?? fallbackTime,
      undated_sessions: missing,
    };
  });
}

export interface LocomoOptions {
  runtime: EvalRuntime;
  /** Recall cut-offs, ascending. */
  ks: readonly number[];
  limitConversations?: number;
  /** Turns before each turn stored as its context (default CONTEXT_TURNS; 0: none). */
  contextTurns?: number;
  referenceTime?: LocomoReferenceTime;
  freshBanks?: boolean;
  progress?: (total: number) => Progress;
  /** Called for every question, with what was retrieved. */
  onQuestion?: (record: LocomoQuestionRecord) => void;
}

export interface LocomoQuestionRecord {
  sample_id: string;
  question: string;
  category: string;
  evidence: string[];
  /** dia_ids of the top max(k) turns, best first. */
  retrieved: string[];
  recall: Record<string, number>;
}

export interface LocomoReport {
  overall: Record<string, number>;
  by_category: Record<string, Record<string, number>>;
  questions: number;
  turns: number;
  embedder: string;
  seconds: number;
  recall_ms: { p50: number; p99: number };
}

export async function loadLocomo(file: string): Promise<LocomoConversation[]> {
  return parseLocomo(await readJson(file), file);
}

export async function runLocomo(
  conversations: readonly LocomoConversation[],
  options: LocomoOptions,
): Promise<LocomoReport> {
  const started = performance.now();
  const chosen =
    options.limitConversations === undefined
      ? conversations
      : conversations.slice(0, options.limitConversations);
  const ks = options.ks;
  const maxK = Math.max(...ks);
  const names = ks.map((k) => `R@${k}`);
  const total = chosen.reduce((sum, c) => sum + c.turns.length + c.questions.length, 0);
  const progress = options.progress?.(total) ?? noProgress;
  const overall = new MeanAccumulator();
  const byCategory = new GroupedMeans();
  const latency = new LatencyRecorder();
  const pool = new BankPool(options.runtime, { freshBanks: options.freshBanks });
  let turns = 0;
  try {
    for (const conversation of chosen) {
      progress.status(conversation.sample_id);
      const bank = await pool.acquire(conversation.turns.length);
      try {
        const diaIds = new Map<string, string>();
        for (let start = 0; start < conversation.turns.length; start += STORE_CHUNK) {
          const chunk = conversation.turns.slice(start, start + STORE_CHUNK);
          const ids = await bank.storeEpisodic(
            chunk.map((turn, offset) => ({
              task_type: LOCOMO_TASK_TYPE,
              summary: turn.summary,
              context: turnContext(conversation.turns, start + offset, options.contextTurns),
              outcome: "success",
              occurred_at: turn.occurred_at.toISOString(),
              metadata: { dia_id: turn.dia_id, session: turn.session },
              source: conversation.sample_id,
            })),
          );
          for (const [index, id] of ids.entries()) diaIds.set(id, chunk[index]!.dia_id);
          turns += chunk.length;
          progress.tick(chunk.length);
        }
        const queryTime = queryTimeField(
          options.referenceTime === "last-session" ? conversation.reference_time : undefined,
        );
        for (const question of conversation.questions) {
          const { results } = await latency.time(() =>
            bank.service.recall(
              {
                query_text: question.question,
                top_k: maxK,
                memory_layer: LAYER,
                min_score: 0,
                ...queryTime,
              },
              { maxTopK: maxK, recordAccess: false },
            ),
          );
          const retrieved = results.map((result) => diaIds.get(result.id) ?? "");
          const scores = Object.fromEntries(
            ks.map((k) => [`R@${k}`, recallAt(retrieved, question.evidence, k)]),
          );
          overall.add(scores);
          byCategory.add(question.category, scores);
          options.onQuestion?.({
            sample_id: conversation.sample_id,
            question: question.question,
            category: question.category,
            evidence: question.evidence,
            retrieved,
            recall: scores,
          });
          progress.tick();
        }
      } finally {
        await pool.release(bank);
      }
    }
  } finally {
    await pool.close();
    progress.done();
  }
  return {
    overall: overall.means(names),
    by_category: byCategory.report(names),
    questions: overall.questions,
    turns,
    embedder: options.runtime.embedder.id,
    seconds: secondsSince(started),
    recall_ms: latency.summary(),
  };
}
