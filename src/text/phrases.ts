/**
 * Candidate phrases of a text, for saying what distinguishes one set of texts from another
 * (statistical consolidation): word n-grams inside a clause that neither start nor end on a
 * function word, so "no time range" and "port 8080 was in use" are candidates and "had no" or
 * "the" are not. Chinese is segmented into words (Intl.Segmenter), and a phrase of Chinese
 * words is written without spaces: 没有指定时间范围.
 */
import { stem } from "./stem.js";
import { isStopWord } from "./stop-words.js";
import { isCjk } from "./tokenize.js";

const segmenter = new Intl.Segmenter("zh", { granularity: "word" });
const NOT_WORD = /[^\p{L}\p{N}]+/gu;
const NUMBER = /^\p{N}+$/u;

/**
 * Clause boundaries besides punctuation: a cause and its effect are usually joined by one
 * ("had no time range and timed out"), and a phrase should name one or the other.
 */
const CONJUNCTIONS = new Set(
  `and but so then because since while although though or after before when until 并 并且 而且 但 但是 然后 所以 因为 导致 因此 结果 或者 同时`.split(
    /\s+/,
  ),
);

/**
 * Words that turn a phrase into its opposite. They may open a phrase ("no time range",
 * "without a date filter", 没有指定时间范围) but a phrase never carries one in its middle: the
 * words before a negation are its subject ("monthly sales query had"), not the cause.
 */
const NEGATIONS = new Set(
  `no not never without missing lacking lacked none nothing 没 没有 未 无 缺少 缺乏 不 忘了 忘记`.split(
    /\s+/,
  ),
);

/**
 * Words that join a clause to its time or place rather than name anything: function words in
 * a description, though a query may ask by them (so they are not query stop words).
 */
const CONNECTIVES = new Set(["时候", "的时候", "之后", "以后", "之前", "以前", "把", "被", "将"]);

/** Articles between a negation and what it negates: "without a time range". */
const ARTICLES = new Set(["a", "an", "the", "any", "一个"]);

/** Particles that end phrasal verbs: "timed out", "locked up", "cut off" end on one. */
const PARTICLES = new Set(["out", "up", "off", "down", "over", "away", "back"]);

export interface PhraseToken {
  /** Lower-cased, NFKC-normalised: what phrases are compared by. */
  key: string;
  /** As written (NFKC): what a phrase is shown as. */
  text: string;
}

export interface Phrase {
  /** The tokens' keys joined by spaces: identity of the phrase. */
  key: string;
  /** The phrase as written in the first text it was seen in. */
  text: string;
  /** Its tokens' keys. */
  tokens: string[];
  /**
   * 1 when it ends on a natural boundary in that text — the clause's end or a function word
   * next — and 0 when it stops inside a longer expression ("port" in "port 8080", "limited
   * the date" in "limited the date range").
   */
  natural: number;
  /** The negation just before it ("no" in "had no time range"), when there is one. */
  negation?: string;
}

/** Word tokens of each clause of `text`, in order. */
export function clauseTokens(text: string): PhraseToken[][] {
  const clauses: PhraseToken[][] = [[]];
  for (const { segment, isWordLike } of segmenter.segment(text.normalize("NFKC"))) {
    const current = clauses[clauses.length - 1]!;
    if (!isWordLike) {
      // Any punctuation but a joining hyphen, apostrophe or dot inside a word ends a clause.
      if (/[^\s\-'’_./]/u.test(segment) && current.length > 0) clauses.push([]);
      continue;
    }
    const key = segment.toLowerCase().replace(NOT_WORD, "");
    if (!key) continue;
    if (CONJUNCTIONS.has(key)) {
      if (current.length > 0) clauses.push([]);
      continue;
    }
    current.push({ key, text: segment.replace(NOT_WORD, "") });
  }
  return clauses.filter((clause) => clause.length > 0);
}

export function isNegation(key: string): boolean {
  return NEGATIONS.has(key);
}

/** A word that says something: not a function word, a negation or a bare number. */
export function isContentWord(key: string): boolean {
  if (NEGATIONS.has(key) || isStopWord(key) || CONNECTIVES.has(key) || NUMBER.test(key)) {
    return false;
  }
  // One Latin letter ("s" in "30 s") says nothing; one Chinese character may (库, 锁).
  return isCjk(key) || key.length > 1;
}

export function joinTokens(tokens: readonly string[]): string {
  let joined = "";
  for (const [index, token] of tokens.entries()) {
    const previous = tokens[index - 1];
    joined += previous !== undefined && !(isCjk(previous) && isCjk(token)) ? ` ${token}` : token;
  }
  return joined;
}

/** A word that ends a phrase's expression when it comes next to it (see Phrase.natural). */
function isBoundary(token: PhraseToken | undefined): boolean {
  if (token === undefined) return true;
  return !(isContentWord(token.key) || PARTICLES.has(token.key) || NUMBER.test(token.key));
}

/**
 * Whether the token at `index` is one Chinese character stuck to another Chinese word on the
 * `side` given: the segmenter splits words it does not know into characters (数据/库, 超/时),
 * and a phrase must not start or end inside such a word (库迁移, 迁移超).
 */
function splitCharacter(tokens: readonly PhraseToken[], index: number, side: -1 | 1): boolean {
  const key = tokens[index]!.key;
  const neighbour = tokens[index + side]?.key;
  return (
    Array.from(key).length === 1 &&
    isCjk(key) &&
    neighbour !== undefined &&
    isCjk(neighbour) &&
    isContentWord(neighbour)
  );
}

/** The negation before `start`, articles skipped. */
function negationBefore(tokens: readonly PhraseToken[], start: number): string | undefined {
  let index = start - 1;
  while (index >= 0 && ARTICLES.has(tokens[index]!.key)) index--;
  const key = tokens[index]?.key;
  return key !== undefined && NEGATIONS.has(key) ? key : undefined;
}

/**
 * The task type's own words, in every form: "deployed" belongs to task type "deploy". Chinese
 * words are kept as they are.
 */
export function taskWords(taskType: string): Set<string> {
  const words = new Set<string>();
  for (const text of [taskType, taskType.replace(/[_-]+/gu, " ")]) {
    for (const clause of clauseTokens(text)) {
      for (const { key } of clause) words.add(key).add(stem(key));
    }
  }
  return words;
}

const excludedWord = (key: string, excluded: ReadonlySet<string>) =>
  excluded.has(key) || excluded.has(stem(key));

function canOpen(key: string, excluded: ReadonlySet<string>): boolean {
  return !excludedWord(key, excluded) && (NEGATIONS.has(key) || isContentWord(key));
}

function canClose(tokens: readonly PhraseToken[], end: number, excluded: ReadonlySet<string>) {
  const key = tokens[end]!.key;
  if (excludedWord(key, excluded) || NEGATIONS.has(key)) return false;
  if (isContentWord(key) || NUMBER.test(key)) return true;
  return PARTICLES.has(key) && end > 0 && isContentWord(tokens[end - 1]!.key);
}

/**
 * The distinct candidate phrases of `text`, up to `maxTokens` words each: contiguous within a
 * clause, opening on a content word or a negation, closing on a content word, a number or a
 * verb's particle, with no negation after the first word and at least one content word of
 * two or more characters. `excluded` words (the task type's own) neither open nor close one.
 */
export function candidatePhrases(
  text: string,
  excluded: ReadonlySet<string> = new Set(),
  maxTokens = 8,
): Phrase[] {
  const phrases = new Map<string, Phrase>();
  for (const tokens of clauseTokens(text)) {
    for (let start = 0; start < tokens.length; start++) {
      if (!canOpen(tokens[start]!.key, excluded) || splitCharacter(tokens, start, -1)) continue;
      let content = "";
      for (let end = start; end < Math.min(tokens.length, start + maxTokens); end++) {
        const key = tokens[end]!.key;
        if (end > start && NEGATIONS.has(key)) break;
        if (isContentWord(key) && !excludedWord(key, excluded)) content += key;
        if (!canClose(tokens, end, excluded) || Array.from(content).length < 2) continue;
        if (splitCharacter(tokens, end, 1)) continue;
        const span = tokens.slice(start, end + 1);
        const phraseKey = span.map((token) => token.key).join(" ");
        const negation = negationBefore(tokens, start);
        const seen = phrases.get(phraseKey);
        if (seen) {
          if (negation && !seen.negation) seen.negation = negation;
          continue;
        }
        phrases.set(phraseKey, {
          key: phraseKey,
          text: joinTokens(span.map((token) => token.text)),
          tokens: span.map((token) => token.key),
          natural: Number(isBoundary(tokens[end + 1])),
          ...(negation ? { negation } : {}),
        });
      }
    }
  }
  return [...phrases.values()];
}

/** Content words of `text`, distinct: what two texts are compared by to find the typical one. */
export function contentWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const clause of clauseTokens(text)) {
    for (const { key } of clause) if (isContentWord(key)) words.add(key);
  }
  return words;
}

/** Whether most of the letters of `texts` are Chinese, Japanese or Korean. */
export function mostlyCjk(texts: readonly string[]): boolean {
  let cjk = 0;
  let other = 0;
  for (const text of texts) {
    for (const char of text) {
      if (isCjk(char)) cjk++;
      else if (/\p{L}/u.test(char)) other++;
    }
  }
  return cjk > other;
}
