/**
 * Recall ranking. Each candidate has four signals: vector similarity (cosine), keyword
 * relevance (BM25, normalised), freshness (half-life decay of its event time) and access
 * frequency (`min(count/10, 1)`).
 *
 * - `weighted` fusion (default): `w_v·cosine + w_k·BM25 + (w_f·freshness + w_a·frequency)·relevance`,
 *   where relevance is the weighted cosine/BM25 share. The priors are scaled by relevance, so a
 *   brand-new or much-used memory that has nothing to do with the query cannot climb over the
 *   floor on freshness alone.
 * - `rrf` fusion: reciprocal-rank fusion of the four signals' rankings among the candidates,
 *   `Σ w_s / (k + rank_s)`, scaled so that first on every signal is 1. Ranks carry no absolute
 *   relevance, so the floor still gates on the weighted score.
 *
 * A period named in the query ("last week", "上周三") adds a time signal to the episodes that
 * happened in it — fading with distance outside it — rather than filtering: a misread phrase
 * then reorders results instead of hiding them. It is not scaled by relevance, because the
 * period is itself what the query asks for ("what did I do yesterday").
 *
 * Keyword trust: when the query's best keyword match holds little of its words (normalised BM25
 * under `keywordTrustAt`), the words it shares are as likely chance as meaning — a paraphrase
 * shares a stray "call" or "user" with the wrong memory — so that share of the keyword weight
 * moves to the vector, as far as the embedder covers the query. A query that matches some
 * memory well keeps its weights.
 *
 * Outcome weights multiply the score: by default failures weigh as much as successes — a
 * failure is the lesson an agent most needs to recall — and partial outcomes slightly less.
 * A memory whose own text ends with a question weighs `askingWeight` (0.8): it repeats the
 * words of what is asked without holding the answer — a turn that hands a conversation over
 * ("What made you try pottery?") shares the query's words, the reply holds what was meant
 * (docs/evaluation.md).
 * A query that asks when ("when did Nate win his third tournament?") is answered by a memory
 * that places what happened in time ("I won another tournament last week"): for such a query a
 * memory stored with a context (a turn of a conversation, whose own time is when it was said)
 * whose own words name no time weighs `whenWeight` (0.7; see time/when). A memory stored on its
 * own (a task record) is placed in time by its own timestamp, and keeps its weight.
 * A memory stored with a context weighs less the more of its own words its context already
 * holds, down to `echoWeight` (0.6) when it holds them all: in a conversation the turn that
 * brings the words ("I just signed up for a pottery class") holds what happened, the replies
 * that take them up ("Pottery sounds so calming!") react to it (see `contextEcho`).
 * The floor applies to the fused score, after fusion, so a memory found only by keyword can win.
 */
import { isStopWord } from "../../text/stop-words.js";
import type { SimilarityScale } from "../ports.js";
import { calibratedSimilarity } from "../similarity.js";
import type { MemoryLayer, Outcome, ScoreExplanation, ScoreSignals } from "../types.js";
import {
  type Bm25Parameters,
  type CorpusStats,
  DEFAULT_BM25,
  normalisedBm25,
  type TermCounts,
  termCounts,
} from "./bm25.js";
import type { Candidate, CandidateSet } from "./ports.js";
import { type SearchDocument, searchDocument } from "./search-text.js";
import { namesTime } from "./time/when.js";

export interface RankedCandidate {
  layer: MemoryLayer;
  id: string;
  score: number;
  signals: ScoreSignals;
  explanation: ScoreExplanation;
}

export interface RankingWeights {
  vector: number;
  keyword: number;
  freshness: number;
  frequency: number;
}

export type Fusion = "weighted" | "rrf";

export interface RankingOptions {
  weights: RankingWeights;
  bm25: Bm25Parameters;
  fusion: Fusion;
  /** Reciprocal-rank fusion's k: larger values flatten the advantage of the top ranks. */
  rrfK: number;
  outcomeWeights: Record<Outcome, number>;
  /** Multiplies the score of a memory whose own text ends with a question (1: no effect). */
  askingWeight: number;
  /**
   * Multiplies the score of a memory stored with a context whose own words name no time, when
   * the query asks when (1: no effect).
   */
  whenWeight: number;
  /**
   * The weight of a memory stored with a context whose own words all appear in that context;
   * one that repeats a share s of them weighs 1 − (1 − echoWeight)·s (1: no effect).
   */
  echoWeight: number;
  /** Fused scores below this are dropped: nothing is better than noise. */
  floor: number;
  /** Age at which freshness has halved. */
  freshnessHalfLifeDays: number;
  /** Weight of the time signal when the query names a period. */
  timeWeight: number;
  /**
   * Pseudo-relevance feedback: how much matching the best keyword match's other words adds
   * to a memory's keyword relevance (0: off). See `rankPool`.
   */
  feedbackWeight: number;
  /**
   * Per query: the share of the query the embedder can represent (`scriptCoverage`: an
   * English-only model on a Chinese query gives 0). The vector weight is scaled by it and the
   * rest moves to the keyword weight, so the total — and the floor's meaning — stay the same.
   * Absent: 1.
   */
  vectorCoverage?: number;
  /**
   * The best keyword match (normalised BM25, 0..1) at and above which the keyword weight holds
   * in full. Below it the keyword weight shrinks in proportion and the rest moves to the vector
   * weight (as far as the embedder covers the query): when no memory holds much of the query's
   * words, the words it does share are more likely chance than meaning ("is Friday evening free
   * for a call?" shares "call" with the wrong memory). 0: the weights never move.
   */
  keywordTrustAt: number;
  /**
   * Per query: false when it asks about something besides a period it names, so that the time
   * signal is scaled by relevance like freshness; absent or true: the period alone matters.
   */
  timeAlone?: boolean;
  /** Per query: true when it asks when something happened (see time/when). Absent: false. */
  asksWhen?: boolean;
  /** The embedder's cosine scale: cosines are calibrated before fusion and the floor. */
  similarity?: SimilarityScale | undefined;
}

export interface TimeWindow {
  from: Date;
  to: Date;
}

export const DEFAULT_RANKING: RankingOptions = {
  weights: { vector: 0.4, keyword: 0.3, freshness: 0.2, frequency: 0.1 },
  bm25: DEFAULT_BM25,
  fusion: "weighted",
  rrfK: 60,
  outcomeWeights: { success: 1, failure: 1, partial: 0.9 },
  askingWeight: 0.8,
  whenWeight: 0.7,
  echoWeight: 0.6,
  floor: 0.1,
  freshnessHalfLifeDays: 30,
  timeWeight: 0.3,
  feedbackWeight: 0.4,
  keywordTrustAt: 0.3,
};

const DAY_MS = 86_400_000;

/**
 * The weights for a query the embedder covers only in part: the vector weight times the
 * coverage, the rest of it added to the keyword weight. Vectors of text in a script the model
 * does not know (mostly `[UNK]` tokens) are nearly alike whatever the text says: noise that
 * would displace good keyword matches.
 */
export function coveredWeights(weights: RankingWeights, coverage: number): RankingWeights {
  const share = Math.min(1, Math.max(0, Number.isFinite(coverage) ? coverage : 1));
  if (share === 1) return weights;
  return {
    ...weights,
    vector: weights.vector * share,
    keyword: weights.keyword + weights.vector * (1 - share),
  };
}

/**
 * How far a query's keyword matches are to be trusted, 0..1: its best match against
 * `trustAt` (see `RankingOptions.keywordTrustAt`).
 */
export function keywordTrust(bestMatch: number, trustAt: number): number {
  if (!(trustAt > 0)) return 1;
  return Math.min(1, Math.max(0, bestMatch / trustAt));
}

/**
 * The weights once keyword trust is applied: the untrusted share of the keyword weight moves
 * to the vector weight, but only the share of it the embedder covers (`coverage`, as in
 * `coveredWeights`): a vector the model cannot read is no better than a chance word. The total
 * is unchanged, so the floor keeps its meaning.
 */
export function trustedWeights(
  weights: RankingWeights,
  coverage: number,
  trust: number,
): RankingWeights {
  if (trust >= 1) return weights;
  const share = Math.min(1, Math.max(0, Number.isFinite(coverage) ? coverage : 1));
  const moved = weights.keyword * (1 - trust) * share;
  return { ...weights, vector: weights.vector + moved, keyword: weights.keyword - moved };
}

export function freshness(eventTime: Date, now: Date, halfLifeDays: number): number {
  const ageDays = Math.max(0, (now.getTime() - eventTime.getTime()) / DAY_MS);
  return 2 ** (-ageDays / halfLifeDays);
}

export function frequency(accessCount: number): number {
  return Math.min(accessCount / 10, 1);
}

/**
 * 1 inside any of the windows; outside, `exp(-distance / span)` with the span of the nearest
 * window (at least a day), so "last week" still slightly prefers the days around it.
 */
export function timeMatch(eventTime: Date, windows: readonly TimeWindow[]): number {
  let best = 0;
  const at = eventTime.getTime();
  for (const { from, to } of windows) {
    if (at >= from.getTime() && at <= to.getTime()) return 1;
    const distance = at < from.getTime() ? from.getTime() - at : at - to.getTime();
    const span = Math.max(to.getTime() - from.getTime(), DAY_MS);
    best = Math.max(best, Math.exp(-distance / span));
  }
  return best;
}

interface RawSignals {
  vector: number;
  /** The keyword signal: BM25, plus pseudo-relevance feedback (see rankPool). */
  keyword: number;
  /** The query's own normalised BM25. */
  bm25: number;
  freshness: number;
  frequency: number;
}

function rawSignals(
  candidate: Candidate,
  document: TermCounts,
  queryTerms: readonly string[],
  corpus: CorpusStats,
  now: Date,
  options: RankingOptions,
): RawSignals {
  // A zero query vector (text with no word in it) gives NaN distances in pgvector.
  const similarity = calibratedSimilarity(candidate.vector_similarity, options.similarity);
  const bm25 = normalisedBm25(queryTerms, document, corpus, options.bm25);
  return {
    vector: Number.isFinite(similarity) ? Math.max(0, similarity) : 0,
    keyword: bm25,
    bm25,
    freshness: freshness(candidate.event_time, now, options.freshnessHalfLifeDays),
    frequency: frequency(candidate.access_count),
  };
}

/** How well a candidate matches what the query is about: the weighted cosine/BM25 share, 0..1. */
function relevanceOf(raw: RawSignals, weights: RankingWeights): number {
  const relevanceWeight = weights.vector + weights.keyword;
  return relevanceWeight > 0
    ? (weights.vector * raw.vector + weights.keyword * raw.keyword) / relevanceWeight
    : 0;
}

/**
 * The weighted fusion of one candidate's signals and its time signal, times its weight (outcome,
 * asking, when, echo). One object, written out: this runs for every candidate of every ranking.
 */
function weightedSignals(
  raw: RawSignals,
  weights: RankingWeights,
  time: number,
  weight: number,
): ScoreSignals {
  const relevance = relevanceOf(raw, weights);
  return {
    vector: weights.vector * raw.vector * weight,
    keyword: weights.keyword * raw.keyword * weight,
    freshness: weights.freshness * raw.freshness * relevance * weight,
    frequency: weights.frequency * raw.frequency * relevance * weight,
    time: time * weight,
  };
}

const sum = (signals: ScoreSignals) =>
  signals.vector + signals.keyword + signals.freshness + signals.frequency + signals.time;

function scale(signals: ScoreSignals, factor: number): ScoreSignals {
  return {
    vector: signals.vector * factor,
    keyword: signals.keyword * factor,
    freshness: signals.freshness * factor,
    frequency: signals.frequency * factor,
    time: signals.time * factor,
  };
}

/** 1-based rank of each candidate on one signal; ties share the better rank. */
function ranksBy(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => b.value - a.value);
  const ranks = new Array<number>(values.length);
  order.forEach((entry, position) => {
    const previous = order[position - 1];
    ranks[entry.index] =
      previous && previous.value === entry.value ? ranks[previous.index]! : position + 1;
  });
  return ranks;
}

function rrfSignals(
  ranks: ScoreExplanation["ranks"],
  raw: RawSignals,
  options: RankingOptions,
): Omit<ScoreSignals, "time"> {
  const { weights, rrfK } = options;
  const best =
    (weights.vector + weights.keyword + weights.freshness + weights.frequency) / (rrfK + 1);
  // A signal that is zero says nothing about this candidate: it earns no rank credit.
  const part = (weight: number, rank: number, value: number) =>
    value > 0 && best > 0 ? weight / (rrfK + rank) / best : 0;
  return {
    vector: part(weights.vector, ranks.vector, raw.vector),
    keyword: part(weights.keyword, ranks.keyword, raw.keyword),
    freshness: part(weights.freshness, ranks.freshness, raw.freshness),
    frequency: part(weights.frequency, ranks.frequency, raw.frequency),
  };
}

interface PoolEntry {
  candidate: Candidate;
  corpus: CorpusStats;
  /** Its stored words in order, its own and its context's apart. */
  words: SearchDocument;
  /** Its stored words, counted once for every ranking of the pool. */
  document: TermCounts;
  /** The share of its own words its context holds (see `contextEcho`). */
  echo: number;
}

/**
 * Every candidate once, with the corpus statistics of the layer it came from. The echo is not
 * computed when its weight is off (`echoWeight` 1): nothing would use it.
 */
function poolOf(sets: readonly CandidateSet[], echoWeight: number): PoolEntry[] {
  const seen = new Set<string>();
  const pool: PoolEntry[] = [];
  for (const { candidates, corpus } of sets) {
    for (const candidate of candidates) {
      if (seen.has(candidate.id)) continue;
      seen.add(candidate.id);
      const words = searchDocument(candidate.search_text);
      pool.push({
        candidate,
        corpus,
        words,
        document: termCounts(words),
        echo: echoWeight < 1 ? contextEcho(words) : 0,
      });
    }
  }
  return pool;
}

/**
 * The share of a memory's own distinct words, question words left out, that its context (the
 * turns before it) already holds: 0 for a memory stored without context, or with no words of
 * its own; 1 for a reply made only of what was just said. Chosen on LoCoMo's tuning part, where
 * the evidence turns repeat 14% of their words from the two turns before, the wrong turns in the
 * top 5 20% (docs/evaluation.md).
 */
export function contextEcho({ own, context }: SearchDocument): number {
  if (context.length === 0) return 0;
  const words = new Set(own.filter((word) => !isStopWord(word)));
  if (words.size === 0) return 0;
  const before = new Set(context);
  let repeated = 0;
  for (const word of words) if (before.has(word)) repeated++;
  return repeated / words.size;
}

interface Scored {
  entry: PoolEntry;
  raw: RawSignals;
  /** How well it matches the feedback words (0..1); 0 without feedback. */
  feedback: number;
  /** `whenWeight` or 1, decided once per query (see `whenWeightOf`). */
  whenWeight: number;
}

/**
 * A turn of a conversation (stored with a context) that names no time in its own words, for a
 * query asking when; a memory stored on its own is dated by its timestamp.
 */
function whenWeightOf({ words }: PoolEntry, options: RankingOptions): number {
  return options.asksWhen && words.context.length > 0 && !namesTime(words.own)
    ? options.whenWeight
    : 1;
}

/** What weighs on one candidate's score besides its signals, for its explanation. */
interface Weighing {
  outcomeWeight: number;
  askingWeight: number;
  echoWeight: number;
  matched: number;
}

/** One candidate's fused score, before its explanation is written. */
interface Fused {
  /** Its place in the pool. */
  index: number;
  score: number;
  signals: ScoreSignals;
  weighing: Weighing;
}

type SignalRanks = Record<keyof ScoreExplanation["ranks"], number[]>;

/** 1-based ranks of the pool's candidates on each signal (reciprocal-rank fusion, explanations). */
function signalRanksOf(pool: readonly Scored[]): SignalRanks {
  return {
    vector: ranksBy(pool.map(({ raw }) => raw.vector)),
    keyword: ranksBy(pool.map(({ raw }) => raw.keyword)),
    freshness: ranksBy(pool.map(({ raw }) => raw.freshness)),
    frequency: ranksBy(pool.map(({ raw }) => raw.frequency)),
  };
}

/**
 * The pool's fused scores, in pool order, floor applied. Ranks are computed only for
 * reciprocal-rank fusion, which needs them; weighted fusion reads the signals alone.
 */
function fusedScores(
  pool: readonly Scored[],
  options: RankingOptions,
  timeWindows: readonly TimeWindow[],
  signalRanks: () => SignalRanks,
): Fused[] {
  const fused: Fused[] = [];
  pool.forEach(({ entry: { candidate, echo }, raw, whenWeight }, index) => {
    const outcomeWeight = candidate.outcome ? options.outcomeWeights[candidate.outcome] : 1;
    const askingWeight = candidate.asks ? options.askingWeight : 1;
    const echoWeight = 1 - (1 - options.echoWeight) * echo;
    const weight = outcomeWeight * askingWeight * whenWeight * echoWeight;
    // Only episodes have an event time a query's period can refer to.
    const matched =
      candidate.layer === "episodic" ? timeMatch(candidate.event_time, timeWindows) : 0;
    // "What did I do yesterday?" asks for the period itself; "why did billing fail
    // yesterday?" asks about billing, and the period only orders what is about it — otherwise
    // any memory of that day would clear the floor on its date alone.
    const time =
      options.timeWeight *
      matched *
      (options.timeAlone === false ? relevanceOf(raw, options.weights) : 1);
    const weighted = weightedSignals(raw, options.weights, time, weight);
    if (sum(weighted) < options.floor) return;
    const signals =
      options.fusion === "rrf"
        ? scale({ ...rrfSignals(ranksAt(signalRanks(), index), raw, options), time }, weight)
        : weighted;
    fused.push({
      index,
      score: sum(signals),
      signals,
      weighing: { outcomeWeight, askingWeight, echoWeight, matched },
    });
  });
  return fused;
}

function ranksAt(ranks: SignalRanks, index: number): ScoreExplanation["ranks"] {
  return {
    vector: ranks.vector[index]!,
    keyword: ranks.keyword[index]!,
    freshness: ranks.freshness[index]!,
    frequency: ranks.frequency[index]!,
  };
}

/** Computed on first use, then kept. */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/** Best first; equal scores in id order, so a ranking does not depend on the pool's order. */
const byScore =
  (pool: readonly Scored[]) =>
  (a: Fused, b: Fused): number =>
    b.score - a.score ||
    pool[a.index]!.entry.candidate.id.localeCompare(pool[b.index]!.entry.candidate.id);

/**
 * The pool's best `limit` candidates with their signals and explanations, best first, floor
 * applied. Explanations are written for those returned only.
 */
function scorePool(
  pool: readonly Scored[],
  options: RankingOptions,
  timeWindows: readonly TimeWindow[],
  trust: number,
  limit: number,
): RankedCandidate[] {
  const signalRanks = once(() => signalRanksOf(pool));
  const fused = fusedScores(pool, options, timeWindows, signalRanks).sort(byScore(pool));
  return fused.slice(0, limit).map(({ index, score, signals, weighing }) => {
    const { entry, raw, feedback, whenWeight } = pool[index]!;
    return {
      layer: entry.candidate.layer,
      id: entry.candidate.id,
      score,
      signals,
      explanation: {
        fusion: options.fusion,
        vector_similarity: raw.vector,
        bm25: raw.bm25,
        feedback,
        freshness: raw.freshness,
        frequency: raw.frequency,
        outcome_weight: weighing.outcomeWeight,
        asking_weight: weighing.askingWeight,
        when_weight: whenWeight,
        echo_weight: weighing.echoWeight,
        time_match: weighing.matched,
        vector_coverage: options.vectorCoverage ?? 1,
        keyword_trust: trust,
        ranks: ranksAt(signalRanks(), index),
      },
    };
  });
}

/** The pool's best candidate by weighted fusion, floor ignored; none for an empty pool. */
function bestOf(
  pool: readonly Scored[],
  options: RankingOptions,
  timeWindows: readonly TimeWindow[],
): Scored | undefined {
  const fused = fusedScores(
    pool,
    { ...options, floor: -Infinity },
    timeWindows,
    once(() => signalRanksOf(pool)),
  );
  const order = byScore(pool);
  let best: Fused | undefined;
  for (const entry of fused) if (!best || order(entry, best) < 0) best = entry;
  return best && pool[best.index];
}

/**
 * The feedback words of a ranking: the best memory's own words that the query does not have
 * (question words left out), when that memory shares at least one word with the query.
 */
export function feedbackTerms(best: SearchDocument, queryTerms: readonly string[]): string[] {
  const asked = new Set(queryTerms);
  return [...new Set(best.own)].filter((term) => !asked.has(term) && !isStopWord(term));
}

/** BM25 statistics of some words within the pool itself (their store-wide ones are not fetched). */
function poolCorpus(pool: readonly Scored[], terms: readonly string[]): CorpusStats {
  const documentFrequency = new Map<string, number>();
  let length = 0;
  for (const { entry } of pool) {
    length += entry.document.length;
    for (const term of terms) {
      if (entry.document.counts.has(term)) {
        documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
      }
    }
  }
  return {
    documents: pool.length,
    averageLength: pool.length > 0 ? length / pool.length : 0,
    documentFrequency,
  };
}

/**
 * The whole pool scored against one set of query words, best first, floor applied.
 *
 * Pseudo-relevance feedback (one document, as in Rocchio/RM3): the best match that shares a
 * word with the query is taken as relevant, and memories that share *its* other words gain
 * keyword relevance, `min(1, bm25 + feedbackWeight · feedback)`, where `feedback` is the
 * normalised BM25 of those words (statistics from the pool). This is a second hop: "which
 * shoes do I wear?" finds "I wear the Asics Gel-Kayano 26", and through "Asics Gel-Kayano 26"
 * the later message about how those shoes feel, which shares no word with the question. The
 * best match itself matches all its own words and keeps its place. Weighted fusion only: under
 * RRF a faint feedback match would earn a full keyword rank.
 */
function rankPool(
  entries: readonly PoolEntry[],
  queryTerms: readonly string[],
  now: Date,
  queryOptions: RankingOptions,
  timeWindows: readonly TimeWindow[],
  limit: number,
): RankedCandidate[] {
  const pool: Scored[] = entries.map((entry) => ({
    entry,
    raw: rawSignals(entry.candidate, entry.document, queryTerms, entry.corpus, now, queryOptions),
    feedback: 0,
    whenWeight: whenWeightOf(entry, queryOptions),
  }));
  // Trust is judged on the query's own words: feedback words match by construction.
  const trust = keywordTrust(
    Math.max(0, ...pool.map(({ raw }) => raw.bm25)),
    queryOptions.keywordTrustAt,
  );
  const options = {
    ...queryOptions,
    weights: trustedWeights(queryOptions.weights, queryOptions.vectorCoverage ?? 1, trust),
  };
  const withoutFeedback = () => scorePool(pool, options, timeWindows, trust, limit);
  // Under RRF a weak feedback match would earn a full keyword rank: weighted fusion only.
  if (options.fusion !== "weighted" || options.feedbackWeight <= 0 || pool.length < 2) {
    return withoutFeedback();
  }
  // The floor applies to the final score: a best match under it before feedback (a Chinese
  // query matching few of its words, say) may clear it after, so the best is taken unfloored.
  const best = bestOf(pool, options, timeWindows);
  if (!best || best.raw.bm25 <= 0) return withoutFeedback();
  const terms = feedbackTerms(best.entry.words, queryTerms);
  if (terms.length === 0) return withoutFeedback();
  const corpus = poolCorpus(pool, terms);
  const fed = pool.map((scored) => {
    const feedback = normalisedBm25(terms, scored.entry.document, corpus, options.bm25);
    const keyword = Math.min(1, scored.raw.bm25 + options.feedbackWeight * feedback);
    return { ...scored, raw: { ...scored.raw, keyword }, feedback };
  });
  return scorePool(fed, options, timeWindows, trust, limit);
}

/**
 * Takes the lists' firsts, then their seconds, …, each memory once, up to topK: the rankings of
 * the questions of a query that asks several ("Where does my boss live? And when is the
 * meeting?"), each ranked on its own, so that one question's many matches cannot crowd the
 * other's answer out of the top k.
 */
export function interleave(lists: readonly RankedCandidate[][], topK: number): RankedCandidate[] {
  const taken = new Map<string, RankedCandidate>();
  const longest = Math.max(...lists.map((list) => list.length));
  for (let position = 0; position < longest && taken.size < topK; position++) {
    for (const list of lists) {
      const entry = list[position];
      if (entry && !taken.has(entry.id) && taken.size < topK) taken.set(entry.id, entry);
    }
  }
  return [...taken.values()];
}

/** @param queryTerms distinct words of the query */
export function rankCandidates(
  sets: readonly CandidateSet[],
  queryTerms: readonly string[],
  now: Date,
  topK: number,
  options: RankingOptions,
  timeWindows: readonly TimeWindow[] = [],
): RankedCandidate[] {
  const covered = {
    ...options,
    weights: coveredWeights(options.weights, options.vectorCoverage ?? 1),
  };
  const pool = poolOf(sets, options.echoWeight);
  return rankPool(pool, queryTerms, now, covered, timeWindows, topK);
}
