import { describe, expect, it } from "vitest";
import type { CorpusStats } from "./bm25.js";
import type { Candidate } from "./ports.js";
import {
  contextEcho,
  coveredWeights,
  DEFAULT_RANKING,
  feedbackTerms,
  freshness,
  interleave,
  keywordTrust,
  rankCandidates as rankSets,
  trustedWeights,
} from "./ranking.js";

const now = new Date("2025-06-01T00:00:00Z");

function candidate(
  id: string,
  similarity: number,
  searchText: string,
  overrides: Partial<Candidate> = {},
): Candidate {
  return {
    layer: "episodic",
    id,
    vector_similarity: similarity,
    search_text: searchText,
    event_time: now,
    access_count: 0,
    outcome: "success",
    asks: false,
    ...overrides,
  };
}

const corpus: CorpusStats = {
  documents: 100,
  averageLength: 3,
  documentFrequency: new Map([
    ["deploy", 20],
    ["failed", 10],
    ["e4012", 1],
  ]),
};

function rankCandidates(
  candidates: Candidate[],
  terms: string[],
  at: Date,
  topK: number,
  options = DEFAULT_RANKING,
) {
  return rankSets([{ candidates, corpus }], terms, at, topK, options);
}

describe("ranking", () => {
  it("orders by relevance and drops what is under the floor", () => {
    const results = rankCandidates(
      [
        candidate("weak", 0.05, "lunch menu"),
        candidate("best", 0.9, "deploy failed"),
        candidate("good", 0.6, "deploy ok"),
      ],
      ["deploy", "failed"],
      now,
      5,
      DEFAULT_RANKING,
    );
    expect(results.map((r) => r.id)).toEqual(["best", "good"]);
    expect(results[0]!.score).toBeGreaterThan(results[1]!.score);
  });

  it("returns a keyword-only match: the floor applies to the fused score", () => {
    const results = rankCandidates(
      [candidate("kw", 0, "error e4012 in billing")],
      ["e4012"],
      now,
      5,
      DEFAULT_RANKING,
    );
    expect(results.map((r) => r.id)).toEqual(["kw"]);
  });

  it("does not let freshness or frequency lift an irrelevant memory", () => {
    const results = rankCandidates(
      [candidate("popular", 0.02, "unrelated", { access_count: 100 })],
      ["deploy"],
      now,
      5,
      DEFAULT_RANKING,
    );
    expect(results).toEqual([]);
  });

  it("prefers the fresher of two equally relevant memories", () => {
    const old = new Date("2024-01-01T00:00:00Z");
    const results = rankCandidates(
      [candidate("old", 0.7, "x", { event_time: old }), candidate("new", 0.7, "x")],
      ["deploy"],
      now,
      5,
      DEFAULT_RANKING,
    );
    expect(results.map((r) => r.id)).toEqual(["new", "old"]);
  });

  it("reports each signal's contribution, summing to the score", () => {
    const [result] = rankCandidates(
      [candidate("a", 0.8, "deploy x y")],
      ["deploy"],
      now,
      1,
      DEFAULT_RANKING,
    );
    const { vector, keyword, freshness: fresh, frequency } = result!.signals;
    expect(vector + keyword + fresh + frequency).toBeCloseTo(result!.score, 10);
    expect(keyword).toBeCloseTo(DEFAULT_RANKING.weights.keyword, 10);
  });

  it("computes freshness as a half-life", () => {
    expect(freshness(new Date("2025-05-02T00:00:00Z"), now, 30)).toBeCloseTo(0.5, 5);
  });

  it("scores keywords with BM25: the rare word outweighs the common one", () => {
    const results = rankCandidates(
      [candidate("common", 0, "deploy x y"), candidate("rare", 0, "e4012 x y")],
      ["deploy", "e4012"],
      now,
      5,
      { ...DEFAULT_RANKING, floor: 0 },
    );
    expect(results.map((r) => r.id)).toEqual(["rare", "common"]);
  });
});

describe("fusion and outcomes", () => {
  const pool = [
    candidate("close", 0.9, "x y z"),
    candidate("keyword", 0.3, "e4012 x y"),
    candidate("failure", 0.6, "x y z", { outcome: "failure" }),
    candidate("partial", 0.6, "x y z", { outcome: "partial" }),
  ];

  it("keeps failures level with successes and ranks partial outcomes a little lower", () => {
    const results = rankCandidates(
      [...pool, candidate("success", 0.6, "x y z")],
      ["e4012"],
      now,
      10,
    );
    const score = (id: string) => results.find((r) => r.id === id)!.score;
    expect(score("failure")).toBeCloseTo(score("success"), 10);
    expect(score("partial")).toBeCloseTo(score("success") * 0.9, 10);
  });

  it("weighs a memory that ends with a question below the statement it repeats, and says so", () => {
    const results = rankCandidates(
      [
        candidate("asks", 0.7, "deploy failed", { asks: true }),
        candidate("tells", 0.7, "deploy failed"),
      ],
      ["deploy", "failed"],
      now,
      10,
    );
    expect(results.map((r) => r.id)).toEqual(["tells", "asks"]);
    const [tells, asks] = results;
    expect(asks!.score).toBeCloseTo(tells!.score * DEFAULT_RANKING.askingWeight, 10);
    expect(asks!.explanation.asking_weight).toBe(DEFAULT_RANKING.askingWeight);
    expect(tells!.explanation.asking_weight).toBe(1);
    const level = rankCandidates(
      [candidate("asks", 0.7, "deploy failed", { asks: true })],
      ["deploy", "failed"],
      now,
      10,
      { ...DEFAULT_RANKING, askingWeight: 1 },
    );
    expect(level[0]!.score).toBeCloseTo(tells!.score, 10);
  });

  it("for a question asking when, weighs a turn that names no time below one that does", () => {
    // Turns of a conversation: stored with the turns before them as context.
    const pool = [
      candidate("untimed", 0.7, "won tournament | how was it"),
      candidate("timed", 0.7, "won tournament last week | how was it"),
    ];
    const asked = { ...DEFAULT_RANKING, asksWhen: true };
    const results = rankCandidates(pool, ["won", "tournament"], now, 10, asked);
    expect(results.map((r) => r.id)).toEqual(["timed", "untimed"]);
    const [timed, untimed] = results;
    expect(timed!.explanation.when_weight).toBe(1);
    expect(untimed!.explanation.when_weight).toBe(DEFAULT_RANKING.whenWeight);
    // Another question, or the weight at 1, leaves the shorter, closer match first.
    for (const options of [DEFAULT_RANKING, { ...asked, whenWeight: 1 }]) {
      const level = rankCandidates(pool, ["won", "tournament"], now, 10, options);
      expect(level.map((r) => r.id)).toEqual(["untimed", "timed"]);
      expect(level.every((r) => r.explanation.when_weight === 1)).toBe(true);
    }
  });

  it("weighs a reply that takes up what was just said below the turn that said it", () => {
    // Turns of a conversation, each stored with the turn before it as context.
    const pool = [
      candidate("brings", 0.7, "signed up pottery class yesterday | how was your week"),
      candidate("echoes", 0.7, "pottery class sounds calming | signed up pottery class yesterday"),
    ];
    const results = rankCandidates(pool, ["pottery", "class"], now, 10);
    expect(results.map((r) => [r.id, r.explanation.echo_weight])).toEqual([
      ["brings", 1],
      // Two of its four words were just said: 1 − (1 − 0.6) · 0.5.
      ["echoes", 0.8],
    ]);
    // At 1 the reply, which matches in its context too, comes first.
    const level = rankCandidates(pool, ["pottery", "class"], now, 10, {
      ...DEFAULT_RANKING,
      echoWeight: 1,
    });
    expect(level.map((r) => r.id)).toEqual(["echoes", "brings"]);
  });

  it("counts a memory's own words its context holds, question words left out", () => {
    expect(contextEcho({ own: ["deploy", "failed"], context: [] })).toBe(0);
    expect(contextEcho({ own: ["what", "did", "you"], context: ["what", "you"] })).toBe(0);
    expect(contextEcho({ own: ["what", "pottery", "class"], context: ["class", "pottery"] })).toBe(
      1,
    );
    expect(contextEcho({ own: ["pottery", "pottery", "calm"], context: ["pottery"] })).toBe(0.5);
  });

  it("reads the time from a memory's own words, not from its context", () => {
    const results = rankCandidates(
      [candidate("context", 0.7, "won tournament | yesterday")],
      ["won", "tournament"],
      now,
      10,
      { ...DEFAULT_RANKING, asksWhen: true },
    );
    expect(results[0]!.explanation.when_weight).toBe(DEFAULT_RANKING.whenWeight);
  });

  it("leaves a memory stored on its own at full weight: its timestamp says when", () => {
    const results = rankCandidates(
      [
        candidate("record", 0.7, "deployed billing v2"),
        candidate("plan", 0.7, "billing v2 next friday"),
      ],
      ["deployed", "billing", "v2"],
      now,
      10,
      { ...DEFAULT_RANKING, asksWhen: true },
    );
    expect(results.map((r) => [r.id, r.explanation.when_weight])).toEqual([
      ["record", 1],
      ["plan", 1],
    ]);
  });

  it("fuses by reciprocal rank, scaled so that first on every signal would be 1", () => {
    const rrf = { ...DEFAULT_RANKING, fusion: "rrf" as const };
    const results = rankCandidates(pool, ["e4012"], now, 10, rrf);
    for (const result of results) {
      expect(result.score).toBeGreaterThan(0);
      expect(result.score).toBeLessThanOrEqual(1);
      expect(result.explanation.fusion).toBe("rrf");
    }
    expect(results[0]!.id).toBe("keyword");
    expect(results.find((r) => r.id === "keyword")!.explanation.ranks.keyword).toBe(1);
  });

  it("still drops, under RRF, what the weighted score puts under the floor", () => {
    const rrf = { ...DEFAULT_RANKING, fusion: "rrf" as const };
    const results = rankCandidates([candidate("noise", 0.05, "a b c")], ["e4012"], now, 10, rrf);
    expect(results).toEqual([]);
  });

  it("explains the raw signals behind a score", () => {
    const [result] = rankCandidates([candidate("a", 0.8, "deploy x y")], ["deploy"], now, 1);
    expect(result!.explanation).toMatchObject({
      fusion: "weighted",
      vector_similarity: 0.8,
      freshness: 1,
      frequency: 0,
      outcome_weight: 1,
      ranks: { vector: 1, keyword: 1 },
    });
    expect(result!.explanation.bm25).toBeGreaterThan(0);
  });
});

describe("ranking a query of several questions", () => {
  const clauseCorpus: CorpusStats = {
    documents: 100,
    averageLength: 3,
    documentFrequency: new Map([
      ["boss", 4],
      ["email", 4],
      ["phone", 2],
    ]),
  };
  // Four memories about the boss's email match the first question; one the second.
  const pool = [
    candidate("email-1", 0.3, "boss email a"),
    candidate("email-2", 0.3, "boss email b"),
    candidate("email-3", 0.3, "boss email c"),
    candidate("email-4", 0.3, "boss email d"),
    candidate("phone", 0.3, "my phone model"),
  ];
  const rank = (terms: string[]) =>
    rankSets([{ candidates: pool, corpus: clauseCorpus }], terms, now, 2, DEFAULT_RANKING);
  const ids = (results: { id: string }[]) => results.map((result) => result.id);

  it("interleaves the rankings of each question", () => {
    expect(ids(rank(["boss", "email", "phone"]))).toEqual(["email-1", "email-2"]);
    expect(ids(interleave([rank(["boss", "email"]), rank(["phone"])], 2))).toEqual([
      "email-1",
      "phone",
    ]);
  });
});

describe("vector coverage (an embedder that does not know the query's script)", () => {
  it("moves the uncovered share of the vector weight to keywords, keeping the total", () => {
    const weights = DEFAULT_RANKING.weights;
    expect(coveredWeights(weights, 1)).toEqual(weights);
    expect(coveredWeights(weights, 0)).toEqual({ ...weights, vector: 0, keyword: 0.7 });
    const half = coveredWeights(weights, 0.5);
    expect(half.vector).toBeCloseTo(0.2);
    expect(half.keyword).toBeCloseTo(0.5);
    expect(coveredWeights(weights, Number.NaN)).toEqual(weights);
  });

  // The model's vectors for text it cannot read are alike: a keyword-less memory looks closest.
  const pool = [
    candidate("noise", 0.95, "lunch menu"),
    candidate("match", 0.1, "deploy failed e4012"),
  ];
  const rank = (vectorCoverage?: number) =>
    rankCandidates(pool, ["deploy", "e4012"], now, 2, {
      ...DEFAULT_RANKING,
      floor: 0,
      ...(vectorCoverage === undefined ? {} : { vectorCoverage }),
    });

  it("lets keywords decide a query the embedder cannot read, and says so in explain", () => {
    const full = rank();
    expect(full.map((r) => r.id)).toEqual(["noise", "match"]);
    expect(full[0]!.explanation.vector_coverage).toBe(1);
    const uncovered = rank(0);
    expect(uncovered.map((r) => r.id)).toEqual(["match", "noise"]);
    expect(uncovered[0]!.signals.vector).toBe(0);
    expect(uncovered[0]!.explanation.vector_coverage).toBe(0);
    expect(uncovered[0]!.explanation.vector_similarity).toBe(0.1);
  });
});

describe("pseudo-relevance feedback", () => {
  // "e4012" is asked; the best match names "kayano", which a later memory talks about.
  const pool = [
    candidate("best", 0.3, "e4012 kayano"),
    candidate("a-other", 0.3, "lunch menu"),
    candidate("b-follow", 0.3, "kayano comfortable"),
  ];
  const rank = (options: Partial<typeof DEFAULT_RANKING> = {}) =>
    rankCandidates(pool, ["e4012"], now, 3, { ...DEFAULT_RANKING, floor: 0, ...options });

  it("lifts memories sharing the best match's other words, and explains it", () => {
    const results = rank();
    expect(results.map((r) => r.id)).toEqual(["best", "b-follow", "a-other"]);
    const follow = results[1]!;
    expect(follow.explanation.bm25).toBe(0);
    expect(follow.explanation.feedback).toBeGreaterThan(0);
    expect(follow.signals.keyword).toBeCloseTo(
      DEFAULT_RANKING.weights.keyword *
        DEFAULT_RANKING.feedbackWeight *
        follow.explanation.feedback,
    );
    expect(results[2]!.explanation.feedback).toBe(0);
  });

  it("is off at weight 0, under RRF, and when nothing matches the query's words", () => {
    expect(rank({ feedbackWeight: 0 }).map((r) => r.id)).toEqual(["best", "a-other", "b-follow"]);
    const rrf = rank({ fusion: "rrf" });
    expect(rrf.every((r) => r.explanation.feedback === 0)).toBe(true);
    const unmatched = rankCandidates(pool, ["failed"], now, 3, { ...DEFAULT_RANKING, floor: 0 });
    expect(unmatched.every((r) => r.explanation.feedback === 0)).toBe(true);
  });

  it("applies the floor after feedback, so a weak best match can still clear it", () => {
    // Only the commoner of the query's two words matches, the vector says nothing (coverage 0)
    // and the memories are old: before feedback the best one is under the floor.
    const old = { event_time: new Date("2020-01-01T00:00:00Z") };
    const weak = [
      candidate("best", 0, "deploy kayano x y", old),
      candidate("follow", 0, "kayano comfortable", old),
      candidate("noise", 0, "lunch menu", old),
    ];
    const options = { ...DEFAULT_RANKING, floor: 0.2, vectorCoverage: 0 };
    const rank = (feedbackWeight: number) =>
      rankCandidates(weak, ["deploy", "e4012"], now, 3, { ...options, feedbackWeight });
    expect(rank(0).map((r) => r.id)).toEqual([]);
    const fed = rank(0.4);
    expect(fed.map((r) => r.id)).toEqual(["best"]);
    expect(fed[0]!.score).toBeGreaterThanOrEqual(0.2);
    expect(fed[0]!.explanation.feedback).toBeGreaterThan(0);
  });

  it("takes the best match's own words only, without the query's or question words", () => {
    const document = { own: ["e4012", "kayano", "the", "kayano"], context: ["lunch"] };
    expect(feedbackTerms(document, ["e4012"])).toEqual(["kayano"]);
  });
});

describe("keyword trust (a query whose words no memory holds much of)", () => {
  it("moves the untrusted share of the keyword weight to the covered vector, keeping the total", () => {
    const weights = DEFAULT_RANKING.weights;
    expect(keywordTrust(0.6, 0.3)).toBe(1);
    expect(keywordTrust(0.15, 0.3)).toBeCloseTo(0.5);
    expect(keywordTrust(0, 0)).toBe(1);
    expect(trustedWeights(weights, 1, 1)).toEqual(weights);
    const half = trustedWeights(weights, 1, 0.5);
    expect(half.vector).toBeCloseTo(0.55);
    expect(half.keyword).toBeCloseTo(0.15);
    // An embedder that cannot read the query gets nothing: a chance word is as good as its noise.
    expect(trustedWeights({ ...weights, vector: 0, keyword: 0.7 }, 0, 0)).toEqual({
      ...weights,
      vector: 0,
      keyword: 0.7,
    });
  });

  // "is friday evening free for a call?": the wrong memory shares "call" (one word of four),
  // the right one ("nights before Saturday are booked") shares no word, only its meaning.
  const corpus: CorpusStats = {
    documents: 50,
    averageLength: 4,
    documentFrequency: new Map([["call", 5]]),
  };
  const pool = [
    candidate("meaning", 0.38, "nights before saturday are booked"),
    candidate("chance", 0.3, "call notes archived weekly"),
  ];
  const rank = (keywordTrustAt: number) =>
    rankSets([{ candidates: pool, corpus }], ["friday", "evening", "free", "call"], now, 2, {
      ...DEFAULT_RANKING,
      floor: 0,
      keywordTrustAt,
    });

  it("lets meaning win over a stray shared word, and says so in explain", () => {
    expect(rank(0).map((r) => r.id)).toEqual(["chance", "meaning"]);
    const trusted = rank(DEFAULT_RANKING.keywordTrustAt);
    expect(trusted.map((r) => r.id)).toEqual(["meaning", "chance"]);
    expect(trusted[0]!.explanation.keyword_trust).toBeLessThan(1);
    expect(rank(0)[0]!.explanation.keyword_trust).toBe(1);
  });
});
