/**
 * Consolidation without a language model: what can honestly be said from counting. Per task
 * type, the outcome rates and the words that recur in failures (or successes) but rarely in
 * the other outcome. It says what it is in its text and metadata; it understands nothing.
 */
import { uniqueTokens } from "../../text/tokenize.js";
import type { Outcome } from "../types.js";

export interface EpisodeText {
  id: string;
  summary: string;
  outcome: Outcome;
}

export interface Pattern {
  /** The rule or fact, one sentence (semantic key_text). */
  key_text: string;
  /** The advice that goes with it (semantic value_text). */
  value_text: string;
  /** The episodes it was drawn from. */
  sources: string[];
  /** Starts from the support: the share (or number) of episodes behind it. */
  confidence: number;
  kind: string;
}

/** Words in at least this share of one outcome's episodes, and this much rarer in the other. */
const MIN_SHARE = 0.3;
const MIN_CONTRAST = 0.3;
const MAX_TERMS = 5;
const NOTE = "statistical summary, no language model";

function percent(part: number, whole: number): string {
  return `${Math.round((100 * part) / whole)}%`;
}

/** Confidence of a count-based statement: grows with the number of episodes behind it. */
export function sampleConfidence(episodes: number): number {
  return Number((episodes / (episodes + 5)).toFixed(3));
}

/**
 * Words of `mine` episodes that the `other` episodes rarely share, most distinctive first,
 * with the episodes holding any of them.
 */
function distinctiveTerms(
  mine: readonly EpisodeText[],
  other: readonly EpisodeText[],
  exclude: ReadonlySet<string>,
): { terms: { term: string; count: number }[]; sources: string[] } {
  const tokensOf = (episode: EpisodeText) =>
    new Set(uniqueTokens(episode.summary).filter((t) => t.length > 1 && !exclude.has(t)));
  const mineTokens = mine.map(tokensOf);
  const otherTokens = other.map(tokensOf);
  const counts = new Map<string, number>();
  for (const tokens of mineTokens) for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  const scored = [...counts]
    .map(([term, count]) => {
      const share = count / mine.length;
      const elsewhere =
        other.length === 0
          ? 0
          : otherTokens.filter((tokens) => tokens.has(term)).length / other.length;
      return { term, count, share, contrast: share - elsewhere };
    })
    .filter((t) => t.count >= 2 && t.share >= MIN_SHARE && t.contrast >= MIN_CONTRAST)
    .sort((a, b) => b.contrast - a.contrast || b.count - a.count || a.term.localeCompare(b.term))
    .slice(0, MAX_TERMS);
  const chosen = new Set(scored.map((t) => t.term));
  const sources = mine
    .filter((_, index) => [...mineTokens[index]!].some((t) => chosen.has(t)))
    .map((episode) => episode.id);
  return { terms: scored.map(({ term, count }) => ({ term, count })), sources };
}

function outcomeAdvice(successes: number, failures: number, total: number): string {
  if (failures / total >= 0.5) {
    return "this kind of task often fails: recall the past failures and check for their causes before starting.";
  }
  if (successes / total >= 0.8) {
    return "the usual approach works: follow what the past successful episodes did.";
  }
  return "results are mixed: compare the successful and the failed episodes before starting.";
}

/** Up to three count-based patterns for one task type; most actionable first. */
export function statisticalPatterns(taskType: string, episodes: readonly EpisodeText[]): Pattern[] {
  const total = episodes.length;
  if (total === 0) return [];
  const failures = episodes.filter((e) => e.outcome === "failure");
  const successes = episodes.filter((e) => e.outcome === "success");
  const partial = total - failures.length - successes.length;
  const exclude = new Set(uniqueTokens(taskType));
  const patterns: Pattern[] = [];

  const failing = distinctiveTerms(failures, successes, exclude);
  if (failures.length >= 2 && failing.terms.length > 0) {
    const list = failing.terms.map((t) => `"${t.term}" (${t.count} of ${failures.length})`);
    patterns.push({
      kind: "failure_terms",
      key_text: `Failed ${taskType} tasks share recurring terms`,
      value_text:
        `Failed ${taskType} episodes often mention ${list.join(", ")}, which successful ones rarely do. ` +
        `Advice: check for these before starting a ${taskType} task. (${NOTE}.)`,
      sources: failing.sources,
      confidence: Number((failing.sources.length / failures.length).toFixed(3)),
    });
  }

  patterns.push({
    kind: "outcomes",
    key_text: `Outcomes of ${taskType} tasks`,
    value_text:
      `Of the ${total} most recent ${taskType} episodes, ${successes.length} succeeded ` +
      `(${percent(successes.length, total)}), ${failures.length} failed (${percent(failures.length, total)})` +
      `${partial > 0 ? `, ${partial} partly succeeded` : ""}. ` +
      `Advice: ${outcomeAdvice(successes.length, failures.length, total)} (${NOTE}.)`,
    sources: episodes.map((e) => e.id),
    confidence: sampleConfidence(total),
  });

  const working = distinctiveTerms(successes, failures, exclude);
  if (successes.length >= 2 && failures.length > 0 && working.terms.length > 0) {
    const list = working.terms.map((t) => `"${t.term}" (${t.count} of ${successes.length})`);
    patterns.push({
      kind: "success_terms",
      key_text: `Successful ${taskType} tasks share recurring terms`,
      value_text:
        `Successful ${taskType} episodes often mention ${list.join(", ")}, which failed ones rarely do. ` +
        `Advice: repeat what these episodes did. (${NOTE}.)`,
      sources: working.sources,
      confidence: Number((working.sources.length / successes.length).toFixed(3)),
    });
  }
  return patterns.slice(0, 3);
}
