/**
 * MemDaily retrieval (from MemSim, arXiv 2409.20163): each trajectory of a user's messages is a
 * memory bank of its own; each question is recalled against it, and its `target_step_id`
 * messages are the ones to find.
 */
import { basename } from "node:path";
import { z } from "zod";
import { BankPool, type EvalRuntime, queryTimeField } from "./banks.js";
import { jsonFiles, parseData, readJson } from "./data.js";
import { fillMissingTimes, parseMemdailyTime } from "./dates.js";
import { withDistractors } from "./distractors.js";
import { GroupedMeans, MeanAccumulator, rankingScores } from "./metrics.js";
import { noProgress, type Progress } from "./progress.js";
import { LatencyRecorder, secondsSince } from "./timing.js";

const Id = z.union([z.number(), z.string()]);

const Message = z.looseObject({
  mid: Id,
  message: z.string(),
  time: z.string().nullish(),
  place: z.string().nullish(),
});

const Question = z.looseObject({
  qid: Id.nullish(),
  question: z.string().trim().min(1, "must not be empty"),
  target_step_id: z.array(Id),
  time: z.string().nullish(),
});

const Trajectory = z.looseObject({
  tid: Id.nullish(),
  message_list: z.array(Message),
  question_list: z.array(Question),
});

const MemdailyFile = z.array(Trajectory);

export const MEMDAILY_TASK_TYPE = "message";
export const MEMDAILY_METRICS = ["R@1", "R@5", "MRR"] as const;
/** Results asked for per question: the whole bank, so MRR sees every rank, up to this many. */
const MAX_RANKED = 100;

import type { MemdailyReferenceTime } from "./options.js";

export { MEMDAILY_REFERENCE_TIMES, type MemdailyReferenceTime } from "./options.js";

export interface MemdailyMessage {
  mid: string;
  message: string;
  occurred_at: Date;
  time: string | null;
  place: string | null;
}

export interface MemdailyQuestion {
  qid: string;
  question: string;
  targets: string[];
  time: Date | undefined;
}

export interface MemdailyTrajectory {
  file: string;
  tid: string;
  messages: MemdailyMessage[];
  questions: MemdailyQuestion[];
  /** Messages with empty text, left out (a memory needs a summary). */
  skipped_messages: number;
  /** Messages whose time was missing or unreadable (they take the previous message's). */
  undated_messages: number;
}

export function parseMemdaily(
  value: unknown,
  file: string,
  fallbackTime: Date = new Date(),
): MemdailyTrajectory[] {
  const name = basename(file).replace(/\.json$/i, "");
  return parseData(MemdailyFile, value, file).map((trajectory, index) => {
    const kept = trajectory.message_list.filter((message) => message.message.trim() !== "");
    const { times, missing } = fillMissingTimes(
      kept.map((message) => (message.time ? parseMemdailyTime(message.time) : undefined)),
      fallbackTime,
    );
    return {
      file: name,
      tid: String(trajectory.tid ?? index),
      messages: kept.map((message, position) => ({
        mid: String(message.mid),
        message: message.message,
        occurred_at: times[position]!,
        time: message.time ?? null,
        place: message.place ?? null,
      })),
      questions: trajectory.question_list.map((question, position) => ({
        qid: String(question.qid ?? position),
        question: question.question,
        targets: [...new Set(question.target_step_id.map(String))],
        time: question.time ? parseMemdailyTime(question.time) : undefined,
      })),
      skipped_messages: trajectory.message_list.length - kept.length,
      undated_messages: missing,
    };
  });
}

/** Reads a MemDaily file, or every `.json` file of a directory. */
export async function loadMemdaily(path: string): Promise<MemdailyTrajectory[]> {
  const trajectories: MemdailyTrajectory[] = [];
  for (const file of await jsonFiles(path)) {
    trajectories.push(...parseMemdaily(await readJson(file), file));
  }
  return trajectories;
}

export interface MemdailyOptions {
  runtime: EvalRuntime;
  /** At most this many trajectories of each file. */
  limitTrajectories?: number;
  /** Messages of other trajectories mixed into each bank (see distractors). */
  distractors?: number;
  referenceTime?: MemdailyReferenceTime;
  freshBanks?: boolean;
  progress?: (total: number) => Progress;
  onQuestion?: (record: MemdailyQuestionRecord) => void;
}

export interface MemdailyQuestionRecord {
  file: string;
  tid: string;
  qid: string;
  question: string;
  targets: string[];
  /** mids, best first. */
  retrieved: string[];
  scores: Record<string, number>;
}

export interface MemdailyReport {
  overall: Record<string, number>;
  by_file: Record<string, Record<string, number>>;
  questions: number;
  messages: number;
  embedder: string;
  seconds: number;
  recall_ms: { p50: number; p99: number };
}

function limitPerFile(
  trajectories: readonly MemdailyTrajectory[],
  limit: number | undefined,
): MemdailyTrajectory[] {
  if (limit === undefined) return [...trajectories];
  const seen = new Map<string, number>();
  return trajectories.filter((trajectory) => {
    const count = seen.get(trajectory.file) ?? 0;
    seen.set(trajectory.file, count + 1);
    return count < limit;
  });
}

export async function runMemdaily(
  trajectories: readonly MemdailyTrajectory[],
  options: MemdailyOptions,
): Promise<MemdailyReport> {
  const started = performance.now();
  const limited = limitPerFile(trajectories, options.limitTrajectories);
  const chosen = options.distractors
    ? withDistractors(limited, trajectories, options.distractors)
    : limited;
  const progress = options.progress?.(chosen.length) ?? noProgress;
  const overall = new MeanAccumulator();
  const byFile = new GroupedMeans();
  const latency = new LatencyRecorder();
  const pool = new BankPool(options.runtime, { freshBanks: options.freshBanks });
  let messages = 0;
  try {
    for (const trajectory of chosen) {
      progress.status(trajectory.file);
      const bank = await pool.acquire(trajectory.messages.length);
      try {
        const ids =
          trajectory.messages.length === 0
            ? []
            : await bank.storeEpisodic(
                trajectory.messages.map((message) => ({
                  task_type: MEMDAILY_TASK_TYPE,
                  summary: message.message,
                  outcome: "success",
                  occurred_at: message.occurred_at.toISOString(),
                  metadata: {
                    file: trajectory.file,
                    tid: trajectory.tid,
                    mid: message.mid,
                    time: message.time,
                    place: message.place,
                  },
                  source: `${trajectory.file}#${trajectory.tid}`,
                })),
              );
        const mids = new Map(ids.map((id, index) => [id, trajectory.messages[index]!.mid]));
        messages += ids.length;
        const topK = Math.max(5, Math.min(trajectory.messages.length, MAX_RANKED));
        for (const question of trajectory.questions) {
          const queryTime = queryTimeField(
            options.referenceTime === "question" ? question.time : undefined,
          );
          const { results } = await latency.time(() =>
            bank.service.recall(
              {
                query_text: question.question,
                top_k: topK,
                memory_layer: "episodic",
                min_score: 0,
                ...queryTime,
              },
              { maxTopK: topK, recordAccess: false },
            ),
          );
          const retrieved = results.map((result) => mids.get(result.id) ?? "");
          const scores = rankingScores(retrieved, question.targets);
          overall.add(scores);
          byFile.add(trajectory.file, scores);
          options.onQuestion?.({
            file: trajectory.file,
            tid: trajectory.tid,
            qid: question.qid,
            question: question.question,
            targets: question.targets,
            retrieved,
            scores,
          });
        }
      } finally {
        await pool.release(bank);
      }
      progress.tick();
    }
  } finally {
    await pool.close();
    progress.done();
  }
  return {
    overall: overall.means(MEMDAILY_METRICS),
    by_file: byFile.report(MEMDAILY_METRICS),
    questions: overall.questions,
    messages,
    embedder: options.runtime.embedder.id,
    seconds: secondsSince(started),
    recall_ms: latency.summary(),
  };
}
