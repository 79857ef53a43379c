/**
 * What the lifecycle asks the language model (main tier), each answer validated by a schema
 * through completeJson. Every caller keeps a deterministic fallback: a model that fails or
 * keeps answering off-schema costs quality, never data.
 */
import { z } from "zod";
import { completeJson } from "../llm/complete-json.js";
import type { LanguageModel } from "../ports.js";
import { LIMITS } from "../schemas.js";
import type { Outcome } from "../types.js";

const text = (max: number) => z.string().trim().min(1).max(max);

/** Characters of each episode shown to the model: the prompt's budget is episodes × this. */
const EPISODE_CHARS = 400;

function clip(summary: string): string {
  const flat = summary.replace(/\s+/g, " ").trim();
  return flat.length <= EPISODE_CHARS ? flat : `${flat.slice(0, EPISODE_CHARS - 1)}…`;
}

const PatternsAnswer = z.object({
  patterns: z
    .array(
      z.object({
        rule: text(LIMITS.keyChars),
        advice: text(LIMITS.valueChars),
        episodes: z.array(z.number().int()).min(1),
      }),
    )
    .min(1)
    .max(3),
});

export interface PromptEpisode {
  id: string;
  occurred_at: Date;
  summary: string;
  outcome: Outcome;
}

export interface ExtractedPattern {
  rule: string;
  advice: string;
  sources: string[];
}

/** Asks for 1–3 reusable patterns in the episodes, each citing the episodes behind it. */
export async function extractPatterns(
  llm: LanguageModel,
  taskType: string,
  episodes: readonly PromptEpisode[],
): Promise<ExtractedPattern[]> {
  const lines = episodes.map(
    (e, index) =>
      `${index + 1}. [${e.outcome}] ${e.occurred_at.toISOString().slice(0, 10)} ${clip(e.summary)}`,
  );
  const { value } = await completeJson(
    llm,
    {
      tier: "main",
      purpose: "consolidation",
      temperature: 0,
      maxTokens: 800,
      messages: [
        {
          role: "system",
          content:
            "You turn an agent's past task records into reusable knowledge. Find 1 to 3 patterns " +
            "that hold across several records: what tends to fail and why, what works. Each " +
            "pattern is a rule (one sentence) and advice (what to do next time), in the language " +
            "of the records, citing the numbers of the records it rests on. Do not invent facts " +
            'that are not in the records. Answer with JSON only: {"patterns": [{"rule": "…", ' +
            '"advice": "…", "episodes": [1, 2]}]}',
        },
        {
          role: "user",
          content: `Task type: ${taskType}\nRecords (number, [outcome], date, summary):\n${lines.join("\n")}`,
        },
      ],
    },
    PatternsAnswer,
  );
  return value.patterns.map((pattern) => {
    const cited = [...new Set(pattern.episodes)]
      .filter((n) => n >= 1 && n <= episodes.length)
      .map((n) => episodes[n - 1]!.id);
    // A pattern citing nothing that exists rests on the whole batch the model was shown.
    return {
      rule: pattern.rule,
      advice: pattern.advice,
      sources: cited.length > 0 ? cited : episodes.map((e) => e.id),
    };
  });
}

export interface Fact {
  key_text: string;
  value_text: string;
}

const JudgementsAnswer = z.object({
  judgements: z.array(
    z.object({
      fact: z.number().int(),
      same_subject: z.boolean(),
      contradicts: z.boolean(),
    }),
  ),
});

/** Which existing facts the new one contradicts (same subject, incompatible statement). */
export async function findContradicted(
  llm: LanguageModel,
  incoming: Fact,
  existing: readonly Fact[],
): Promise<boolean[]> {
  const { value } = await completeJson(
    llm,
    {
      tier: "main",
      purpose: "contradiction",
      temperature: 0,
      maxTokens: 400,
      messages: [
        {
          role: "system",
          content:
            "You compare a new fact with existing facts of a memory store. For each existing " +
            "fact, say whether it is about the same subject as the new fact, and whether the new " +
            "fact contradicts it (both cannot be true now, e.g. a changed preference, address or " +
            'setting). Answer with JSON only: {"judgements": [{"fact": 1, "same_subject": true, ' +
            '"contradicts": false}]}',
        },
        {
          role: "user",
          content:
            `New fact: ${incoming.key_text} — ${incoming.value_text}\nExisting facts:\n` +
            existing.map((f, i) => `${i + 1}. ${f.key_text} — ${f.value_text}`).join("\n"),
        },
      ],
    },
    JudgementsAnswer,
  );
  return existing.map((_, index) =>
    value.judgements.some((j) => j.fact === index + 1 && j.same_subject && j.contradicts),
  );
}

const MergedAnswer = z.object({
  key_text: text(LIMITS.keyChars),
  value_text: text(LIMITS.valueChars),
});

/** One fact saying everything two near-duplicates say. */
export async function mergeFacts(llm: LanguageModel, a: Fact, b: Fact): Promise<Fact> {
  const { value } = await completeJson(
    llm,
    {
      tier: "main",
      purpose: "merge",
      temperature: 0,
      maxTokens: 600,
      messages: [
        {
          role: "system",
          content:
            "Two stored facts say nearly the same thing. Merge them into one: keep every detail " +
            "either holds, drop repetition, keep their language. Answer with JSON only: " +
            '{"key_text": "the rule or fact, one sentence", "value_text": "the advice or detail"}',
        },
        {
          role: "user",
          content: `1. ${a.key_text} — ${a.value_text}\n2. ${b.key_text} — ${b.value_text}`,
        },
      ],
    },
    MergedAnswer,
  );
  return value;
}
