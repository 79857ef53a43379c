/**
 * Consolidation without a language model: what can honestly be said from counting. Per task
 * type, the phrase that failed episodes share and successful ones do not (the likely cause),
 * the phrase the successes share instead, and the outcome rates. Each rule names its phrase,
 * its counts on both sides and the most typical episode as an example, in the language of
 * the episodes; it says in its text and metadata that no model wrote it.
 *
 * The statistic is the contrast of document shares: the share of failures holding a phrase
 * minus the share of successes holding it. Phrases (src/text/phrases) neither start nor end on
 * a function word in either language, and a negation may open one but not sit inside it, so
 * "no time range" is a candidate and "had", "and" or "30" never are. Words common to both
 * outcomes — the task's own subject — have no contrast and are never named as a cause.
 */
import {
  candidatePhrases,
  contentWords,
  isContentWord,
  isNegation,
  joinTokens,
  mostlyCjk,
  type Phrase,
  taskWords,
} from "../../text/phrases.js";
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

/** A phrase is named when at least this share of one outcome holds it… */
const MIN_SHARE = 0.3;
/** …and its share in the other outcome is at least this much lower. */
const MIN_CONTRAST = 0.3;
/** The example episode is shown up to this many characters, cut at a word. */
const EXAMPLE_CHARS = 160;

/** Words that describe an outcome itself: the symptom of a failure, not its cause. */
const FAILURE_WORDS =
  /^(fail|failed|fails|failing|failure|error|errors|errored|exception|timeout|timed|crash|crashed|denied|refused|rejected|broke|broken|aborted|失败|错误|报错|出错|超时|异常|崩溃|拒绝|中断)$/u;
const SUCCESS_WORDS =
  /^(success|succeeded|successful|successfully|succeeds|passed|worked|completed|finished|returned|done|ok|成功|完成|通过|顺利)$/u;

/** Confidence of a count-based statement: grows with the number of episodes behind it. */
export function sampleConfidence(episodes: number): number {
  return Number((episodes / (episodes + 5)).toFixed(3));
}

interface Distinctive {
  phrase: Phrase;
  /** How it is written in the rule: with its negation when most episodes negate it. */
  text: string;
  /** Episodes of this outcome holding it. */
  ids: string[];
  /** Episodes of the other outcome holding it. */
  elsewhere: number;
  contrast: number;
  /** Mean natural boundaries of its occurrences (Phrase.natural). */
  natural: number;
}

type PhraseIndex = Map<string, Map<string, Phrase>>;

function indexPhrases(
  episodes: readonly EpisodeText[],
  excluded: ReadonlySet<string>,
): PhraseIndex {
  return new Map(
    episodes.map((episode) => [
      episode.id,
      new Map(candidatePhrases(episode.summary, excluded).map((p) => [p.key, p])),
    ]),
  );
}

/**
 * Phrases of `mine` episodes the `other` episodes rarely hold, most distinctive first: by
 * contrast, then by support, then the longer phrase (of two with the same counts, "no time
 * range" says more than "time range").
 */
function distinctivePhrases(
  mine: readonly EpisodeText[],
  other: readonly EpisodeText[],
  index: PhraseIndex,
): Distinctive[] {
  // Each phrase's occurrences, one per episode holding it, and those episodes.
  const found = new Map<string, { occurrences: Phrase[]; ids: string[] }>();
  for (const episode of mine) {
    for (const phrase of index.get(episode.id)!.values()) {
      const entry = found.get(phrase.key) ?? { occurrences: [], ids: [] };
      found.set(phrase.key, entry);
      entry.occurrences.push(phrase);
      entry.ids.push(episode.id);
    }
  }
  const scored: Distinctive[] = [];
  for (const [key, { occurrences, ids }] of found) {
    const share = occurrences.length / mine.length;
    if (occurrences.length < 2 || share < MIN_SHARE) continue;
    const elsewhere = other.filter((episode) => index.get(episode.id)!.has(key)).length;
    const contrast = share - (other.length === 0 ? 0 : elsewhere / other.length);
    if (contrast < MIN_CONTRAST) continue;
    const phrase = occurrences[0]!;
    if (!opensOnItsOwn(phrase, mine, other, index)) continue;
    scored.push({
      phrase,
      text: written(phrase, occurrences),
      ids,
      elsewhere,
      contrast,
      natural: occurrences.reduce((sum, p) => sum + p.natural, 0) / occurrences.length,
    });
  }
  return scored.sort(
    (a, b) =>
      b.contrast - a.contrast ||
      b.ids.length - a.ids.length ||
      b.natural - a.natural ||
      b.phrase.tokens.length - a.phrase.tokens.length ||
      a.phrase.key.localeCompare(b.phrase.key),
  );
}

/**
 * Whether the phrase's first word is itself distinctive (or a negation): "sales query limited
 * the date range" opens on the subject both outcomes share, and the phrase to name is
 * "limited the date range".
 */
function opensOnItsOwn(
  phrase: Phrase,
  mine: readonly EpisodeText[],
  other: readonly EpisodeText[],
  index: PhraseIndex,
): boolean {
  const first = phrase.tokens[0]!;
  if (isNegation(first) || other.length === 0) return true;
  const share = (episodes: readonly EpisodeText[]) =>
    episodes.filter((episode) => index.get(episode.id)!.has(first)).length / episodes.length;
  return share(mine) - share(other) >= MIN_CONTRAST;
}

/**
 * A phrase most of whose occurrences follow a negation is written with it: "time range" held
 * by "had no time range" and "ran without a time range" is the cause "no time range", and
 * naming it bare would say the opposite.
 */
function written(phrase: Phrase, occurrences: readonly Phrase[]): string {
  if (isNegation(phrase.tokens[0]!)) return phrase.text;
  const counts = new Map<string, number>();
  for (const { negation } of occurrences) {
    if (negation) counts.set(negation, (counts.get(negation) ?? 0) + 1);
  }
  const [negation, count] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
  if (2 * count <= occurrences.length) return phrase.text;
  // "without" reads as "no" before a bare noun phrase; other negations are kept as written.
  return joinTokens([
    negation === "without" || negation === "missing" ? "no" : negation,
    phrase.text,
  ]);
}

const describesOutcome = (phrase: Phrase, words: RegExp) =>
  phrase.tokens.some((token) => words.test(token));

/** The first phrase that passes `accept` and shares no content word with `besides`. */
function firstPhrase(
  phrases: readonly Distinctive[],
  accept: (phrase: Phrase) => boolean,
  besides?: Distinctive,
): Distinctive | undefined {
  const taken = new Set(besides?.phrase.tokens.filter(isContentWord) ?? []);
  return phrases.find(
    (entry) => accept(entry.phrase) && !entry.phrase.tokens.some((token) => taken.has(token)),
  );
}

/**
 * How the failures showed: of the outcome phrases as distinctive as the best, the shortest
 * with natural ends ("timed out", not "timed out after 30"; 失败, not 服务失败).
 */
function symptomPhrase(
  phrases: readonly Distinctive[],
  cause: Distinctive | undefined,
): Distinctive | undefined {
  const best = firstPhrase(phrases, (phrase) => describesOutcome(phrase, FAILURE_WORDS), cause);
  if (!best) return undefined;
  return phrases
    .filter(
      (entry) =>
        entry.contrast === best.contrast &&
        entry.ids.length === best.ids.length &&
        entry.natural === best.natural &&
        describesOutcome(entry.phrase, FAILURE_WORDS) &&
        firstPhrase([entry], () => true, cause) !== undefined,
    )
    .sort((a, b) => a.phrase.tokens.length - b.phrase.tokens.length)[0];
}

/** The episode most like the others (the medoid by shared content words). */
function typicalEpisode(episodes: readonly EpisodeText[]): EpisodeText {
  const words = episodes.map((episode) => contentWords(episode.summary));
  let best = 0;
  let bestScore = -1;
  for (const [i, mine] of words.entries()) {
    let score = 0;
    for (const [j, theirs] of words.entries()) {
      if (i === j) continue;
      let shared = 0;
      for (const word of mine) if (theirs.has(word)) shared++;
      const union = mine.size + theirs.size - shared;
      score += union === 0 ? 0 : shared / union;
    }
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  return episodes[best]!;
}

/** The first `max` characters of a summary, ending on a whole word. */
function example(summary: string): string {
  const line = summary.replace(/\s+/gu, " ").trim();
  const chars = Array.from(line);
  if (chars.length <= EXAMPLE_CHARS) return line;
  const head = chars.slice(0, EXAMPLE_CHARS - 1).join("");
  const cut = head.search(/\s\S*$/u);
  return `${cut > EXAMPLE_CHARS / 2 ? head.slice(0, cut) : head}…`;
}

function percent(part: number, whole: number): string {
  return `${Math.round((100 * part) / whole)}%`;
}

interface Findings {
  taskType: string;
  failures: EpisodeText[];
  successes: EpisodeText[];
  partial: number;
  /** The failures' distinguishing phrase that is not about failing itself: the likely cause. */
  cause?: Distinctive | undefined;
  /** How the failures showed ("timed out"), another phrase than the cause. */
  symptom?: Distinctive | undefined;
  /** What the successes did that the failures did not. */
  worked?: Distinctive | undefined;
}

/** Sentences in English or Chinese: the rule is recalled by questions in its own language. */
interface Wording {
  failureKey(f: Findings, cause: Distinctive): string;
  /** When the failures share only how they failed. */
  symptomKey(f: Findings, symptom: Distinctive): string;
  failureValue(f: Findings, cause: Distinctive, example: string): string;
  successKey(f: Findings, worked: Distinctive): string;
  successValue(f: Findings, worked: Distinctive, example: string): string;
  outcomesKey(f: Findings): string;
  outcomesValue(f: Findings): string;
}

const NOTE = "statistical summary, no language model";

const ENGLISH: Wording = {
  failureKey: ({ taskType, failures, successes }, cause) =>
    `${taskType} fails when: ${cause.text} (${cause.ids.length} of ${failures.length} failures` +
    `${successes.length > 0 ? `, ${cause.elsewhere} of ${successes.length} successes` : ""})`,
  symptomKey: ({ taskType, failures, successes }, symptom) =>
    `${taskType} failures: ${symptom.text} (${symptom.ids.length} of ${failures.length} failures` +
    `${successes.length > 0 ? `, ${symptom.elsewhere} of ${successes.length} successes` : ""})`,
  failureValue: ({ taskType, failures, successes, symptom, worked }, cause, shown) =>
    [
      `${cause.ids.length} of ${failures.length} failed ${taskType} episodes had "${cause.text}"` +
        `${symptom ? ` and "${symptom.text}"` : ""}` +
        (successes.length === 0
          ? "; there is no successful episode to compare with."
          : cause.elsewhere === 0
            ? `; none of the ${successes.length} successful ones did.`
            : `; ${cause.elsewhere} of the ${successes.length} successful ones did.`),
      worked ? `The successful ones had "${worked.text}" instead.` : "",
      `Example: "${shown}".`,
      `Advice: before a ${taskType} task, watch for "${cause.text}"` +
        `${worked ? ` and do what the successful ones did ("${worked.text}")` : ""}.`,
      `(${NOTE}.)`,
    ]
      .filter(Boolean)
      .join(" "),
  successKey: ({ taskType, failures, successes }, worked) =>
    `${taskType} succeeds when: ${worked.text} (${worked.ids.length} of ${successes.length} successes, ` +
    `${worked.elsewhere} of ${failures.length} failures)`,
  successValue: ({ taskType }, worked, shown) =>
    `Successful ${taskType} episodes had "${worked.text}"; the failed ones mostly did not. ` +
    `Example: "${shown}". Advice: repeat it. (${NOTE}.)`,
  outcomesKey: ({ taskType }) => `Outcomes of ${taskType} tasks`,
  outcomesValue: ({ taskType, failures, successes, partial }) => {
    const total = failures.length + successes.length + partial;
    return (
      `Of the ${total} most recent ${taskType} episodes, ${successes.length} succeeded ` +
      `(${percent(successes.length, total)}), ${failures.length} failed (${percent(failures.length, total)})` +
      `${partial > 0 ? `, ${partial} partly succeeded` : ""}. ` +
      `Advice: ${
        failures.length / total >= 0.5
          ? "this kind of task often fails: recall the past failures and check for their causes before starting."
          : successes.length / total >= 0.8
            ? "the usual approach works: follow what the past successful episodes did."
            : "results are mixed: compare the successful and the failed episodes before starting."
      } (${NOTE}.)`
    );
  },
};

const CHINESE_NOTE = "统计摘要，未使用语言模型";

const CHINESE: Wording = {
  failureKey: ({ taskType, failures, successes }, cause) =>
    `${taskType} 任务失败的原因：${cause.text}（${failures.length} 次失败中 ${cause.ids.length} 次` +
    `${successes.length > 0 ? `，${successes.length} 次成功中 ${cause.elsewhere} 次` : ""}）`,
  symptomKey: ({ taskType, failures, successes }, symptom) =>
    `${taskType} 任务失败的表现：${symptom.text}（${failures.length} 次失败中 ${symptom.ids.length} 次` +
    `${successes.length > 0 ? `，${successes.length} 次成功中 ${symptom.elsewhere} 次` : ""}）`,
  failureValue: ({ taskType, failures, successes, symptom, worked }, cause, shown) =>
    [
      `${failures.length} 次失败的 ${taskType} 任务中有 ${cause.ids.length} 次“${cause.text}”` +
        `${symptom ? `，并且“${symptom.text}”` : ""}` +
        (successes.length === 0
          ? "；没有成功的任务可以对比。"
          : cause.elsewhere === 0
            ? `；${successes.length} 次成功的任务都没有。`
            : `；${successes.length} 次成功的任务中有 ${cause.elsewhere} 次。`),
      worked ? `成功的任务则是“${worked.text}”。` : "",
      `例：“${shown}”。`,
      `建议：开始 ${taskType} 任务前，先检查是否有“${cause.text}”的情况` +
        `${worked ? `，并照成功的做法“${worked.text}”` : ""}。`,
      `（${CHINESE_NOTE}。）`,
    ].join(""),
  successKey: ({ taskType, failures, successes }, worked) =>
    `${taskType} 任务成功的做法：${worked.text}（${successes.length} 次成功中 ${worked.ids.length} 次，` +
    `${failures.length} 次失败中 ${worked.elsewhere} 次）`,
  successValue: ({ taskType }, worked, shown) =>
    `成功的 ${taskType} 任务都有“${worked.text}”，失败的大多没有。例：“${shown}”。建议：照做。（${CHINESE_NOTE}。）`,
  outcomesKey: ({ taskType }) => `${taskType} 任务的结果统计`,
  outcomesValue: ({ taskType, failures, successes, partial }) => {
    const total = failures.length + successes.length + partial;
    return (
      `最近 ${total} 次 ${taskType} 任务中，成功 ${successes.length} 次（${percent(successes.length, total)}），` +
      `失败 ${failures.length} 次（${percent(failures.length, total)}）` +
      `${partial > 0 ? `，部分成功 ${partial} 次` : ""}。建议：${
        failures.length / total >= 0.5
          ? "这类任务经常失败：开始前先回顾以往的失败并检查其原因。"
          : successes.length / total >= 0.8
            ? "常规做法有效：照以往成功的任务去做。"
            : "结果好坏参半：开始前对比成功和失败的任务。"
      }（${CHINESE_NOTE}。）`
    );
  },
};

function findings(taskType: string, episodes: readonly EpisodeText[]): Findings {
  const failures = episodes.filter((e) => e.outcome === "failure");
  const successes = episodes.filter((e) => e.outcome === "success");
  // The task type's own words describe every episode of it: never a cause.
  const index = indexPhrases(episodes, taskWords(taskType));
  const failing = distinctivePhrases(failures, successes, index);
  const cause = firstPhrase(failing, (phrase) => !describesOutcome(phrase, FAILURE_WORDS));
  const symptom = symptomPhrase(failing, cause);
  const worked = firstPhrase(
    distinctivePhrases(successes, failures, index),
    (phrase) => !describesOutcome(phrase, SUCCESS_WORDS),
  );
  return {
    taskType,
    failures,
    successes,
    partial: episodes.length - failures.length - successes.length,
    cause,
    symptom,
    worked,
  };
}

/** Up to three count-based patterns for one task type; most actionable first. */
export function statisticalPatterns(taskType: string, episodes: readonly EpisodeText[]): Pattern[] {
  if (episodes.length === 0) return [];
  const found = findings(taskType, episodes);
  const wording = mostlyCjk(episodes.map((e) => e.summary)) ? CHINESE : ENGLISH;
  const byId = new Map(episodes.map((e) => [e.id, e]));
  const typical = (ids: readonly string[]) =>
    example(typicalEpisode(ids.map((id) => byId.get(id)!)).summary);
  const patterns: Pattern[] = [];
  const { cause, symptom, worked, failures, successes } = found;

  /** A rule about one phrase: drawn from the episodes holding it, as sure as its contrast. */
  const about = (kind: string, phrase: Distinctive, key: string, value: string): Pattern => ({
    kind,
    key_text: key,
    value_text: value,
    sources: phrase.ids,
    confidence: Number(Math.max(0.1, phrase.contrast).toFixed(3)),
  });

  if (cause) {
    const value = wording.failureValue(found, cause, typical(cause.ids));
    patterns.push(about("failure_cause", cause, wording.failureKey(found, cause), value));
  } else if (symptom) {
    // Said as what it is: how they failed, not why.
    const { symptom: _, ...without } = found;
    const value = wording.failureValue(without, symptom, typical(symptom.ids));
    patterns.push(about("failure_symptom", symptom, wording.symptomKey(found, symptom), value));
  }
  patterns.push({
    kind: "outcomes",
    key_text: wording.outcomesKey(found),
    value_text: wording.outcomesValue(found),
    sources: episodes.map((e) => e.id),
    confidence: sampleConfidence(episodes.length),
  });
  if (worked && failures.length > 0 && successes.length >= 2) {
    const value = wording.successValue(found, worked, typical(worked.ids));
    patterns.push(about("success_cause", worked, wording.successKey(found, worked), value));
  }
  return patterns;
}
