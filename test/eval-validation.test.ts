/**
 * Reading evaluation files: LoCoMo and MemDaily samples become memories as documented, and
 * bad files fail with an error naming the field.
 */
import { describe, expect, it } from "vitest";
import { HindsightError } from "../src/core/errors.js";
import { parseLocomo, turnSummary } from "../src/eval/locomo.js";
import { parseMemdaily } from "../src/eval/memdaily.js";
import { parseRegressionSet } from "../src/eval/set.js";

function errorOf(run: () => unknown): HindsightError {
  try {
    run();
  } catch (error) {
    if (error instanceof HindsightError) return error;
    throw error;
  }
  throw new Error("expected an error");
}

const FALLBACK = new Date("2030-01-01T00:00:00Z");

describe("LoCoMo samples", () => {
  const sample = {
    sample_id: "conv-x",
    conversation: {
      speaker_a: "Ana",
      speaker_b: "Bo",
      session_10: [{ speaker: "Ana", dia_id: "D10:1", text: "Late session." }],
      session_10_date_time: "9:00 am on 3 March, 2024",
      session_2: [
        { speaker: "Bo", dia_id: "D2:1", text: " Look! ", blip_caption: "a photo of a red kite" },
        { speaker: "Ana", dia_id: "D2:2", text: "Nice.", blip_caption: "" },
      ],
      session_2_date_time: "not a date",
      session_1: [{ speaker: "Ana", dia_id: "D1:1", text: "Hello." }],
      session_1_date_time: "1:56 pm on 8 May, 2023",
      session_3_date_time: "1:00 pm on 9 May, 2023",
    },
    qa: [
      { question: "Q1?", answer: "x", evidence: ["D1:1; D2:1", "D9:9"], category: 4 },
      { question: "Q2?", adversarial_answer: "y", evidence: [], category: 5 },
      { question: "Q3?", answer: 2022 },
    ],
  };

  it("orders sessions by number, dates turns by session and fills unreadable dates", () => {
    const [conversation] = parseLocomo([sample], "locomo.json", FALLBACK);
    expect(conversation!.sample_id).toBe("conv-x");
    expect(conversation!.turns.map((turn) => [turn.dia_id, turn.session])).toEqual([
      ["D1:1", 1],
      ["D2:1", 2],
      ["D2:2", 2],
      ["D10:1", 10],
    ]);
    expect(conversation!.turns.map((turn) => turn.occurred_at.toISOString())).toEqual([
      "2023-05-08T13:56:00.000Z",
      "2023-05-08T13:56:00.000Z",
      "2023-05-08T13:56:00.000Z",
      "2024-03-03T09:00:00.000Z",
    ]);
    expect(conversation!.undated_sessions).toBe(1);
    expect(conversation!.reference_time.toISOString()).toBe("2024-03-03T09:00:00.000Z");
  });

  it('stores "<speaker>: <text>" plus the caption of a shared photo', () => {
    const [conversation] = parseLocomo([sample], "locomo.json", FALLBACK);
    expect(conversation!.turns.map((turn) => turn.summary)).toEqual([
      "Ana: Hello.",
      "Bo: Look! [shares a photo of a red kite]",
      "Ana: Nice.",
      "Ana: Late session.",
    ]);
    expect(turnSummary({ speaker: "A", text: "t", blip_caption: null })).toBe("A: t");
  });

  it("splits evidence, keeps unknown ids and names missing categories", () => {
    const [conversation] = parseLocomo(sample, "locomo.json", FALLBACK);
    expect(conversation!.questions).toEqual([
      { question: "Q1?", category: "4", evidence: ["D1:1", "D2:1", "D9:9"] },
      { question: "Q2?", category: "5", evidence: [] },
      { question: "Q3?", category: "none", evidence: [] },
    ]);
  });

  it("names the field at fault", () => {
    const bad = structuredClone(sample) as unknown as {
      conversation: { session_2: { text: unknown }[] };
    };
    bad.conversation.session_2[1]!.text = 5;
    const error = errorOf(() => parseLocomo([sample, bad], "locomo.json"));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.field).toBe("data");
    expect(error.message).toMatch(
      /^data: locomo\.json \[1\]\.conversation\.session_2\[1\]\.text: /,
    );
    expect(errorOf(() => parseLocomo([{ qa: [] }], "l.json")).message).toContain(
      "[0].conversation:",
    );
    expect(
      errorOf(() => parseLocomo([{ ...sample, qa: [{ question: " " }] }], "l.json")).message,
    ).toContain("[0].qa[0].question: must not be empty");
  });
});

describe("MemDaily trajectories", () => {
  const file = [
    {
      tid: 7,
      message_list: [
        { mid: 0, message: "我的上司叫王思琪。", time: "2024年04月01日 周一 08:30", place: "上海" },
        { mid: 1, message: "  ", time: "2024年04月01日 周一 09:30", place: "上海" },
        { mid: 2, message: "我的上司今年45岁。", time: "下午", place: "上海" },
      ],
      question_list: [
        {
          qid: 0,
          question: "那个45岁的人叫什么？",
          target_step_id: [0, 2, 2],
          time: "2024年04月02日 周二 10:00",
        },
      ],
    },
  ];

  it("keeps message text, time and place, and leaves empty messages out", () => {
    const [trajectory] = parseMemdaily(file, "/data/01_simple_roles.json", FALLBACK);
    expect(trajectory!.file).toBe("01_simple_roles");
    expect(trajectory!.tid).toBe("7");
    expect(trajectory!.messages).toEqual([
      {
        mid: "0",
        message: "我的上司叫王思琪。",
        occurred_at: new Date("2024-04-01T08:30:00Z"),
        time: "2024年04月01日 周一 08:30",
        place: "上海",
      },
      {
        mid: "2",
        message: "我的上司今年45岁。",
        occurred_at: new Date("2024-04-01T08:30:00Z"),
        time: "下午",
        place: "上海",
      },
    ]);
    expect(trajectory!.skipped_messages).toBe(1);
    expect(trajectory!.undated_messages).toBe(1);
    expect(trajectory!.questions).toEqual([
      {
        qid: "0",
        question: "那个45岁的人叫什么？",
        targets: ["0", "2"],
        time: new Date("2024-04-02T10:00:00Z"),
      },
    ]);
  });

  it("names the field at fault", () => {
    const error = errorOf(() =>
      parseMemdaily([{ ...file[0], question_list: [{ question: "q" }] }], "/d/x.json"),
    );
    expect(error.message).toBe(
      "data: x.json [0].question_list[0].target_step_id: Invalid input: expected array, received undefined",
    );
    expect(errorOf(() => parseMemdaily({}, "/d/x.json")).message).toContain("x.json: ");
  });
});

describe("regression sets", () => {
  const valid = {
    now: "2025-07-01T00:00:00Z",
    memories: [
      { key: "m1", layer: "episodic", task_type: "deploy", summary: "s", outcome: "failure" },
      { key: "f1", layer: "semantic", key_text: "k", value_text: "v", tags: ["t"] },
    ],
    queries: [
      {
        query_text: "q",
        expected: ["m1", "f1"],
        memory_layer: "all",
        time_range: "2025-01-01~",
        note: "n",
      },
    ],
  };

  it("passes the store and recall fields through, without key, layer, expected and note", () => {
    const set = parseRegressionSet(valid, "set.json");
    expect(set.now?.toISOString()).toBe("2025-07-01T00:00:00.000Z");
    expect(set.memories).toEqual([
      {
        key: "m1",
        layer: "episodic",
        input: { task_type: "deploy", summary: "s", outcome: "failure" },
      },
      { key: "f1", layer: "semantic", input: { key_text: "k", value_text: "v", tags: ["t"] } },
    ]);
    expect(set.queries).toEqual([
      {
        query_text: "q",
        expected: ["m1", "f1"],
        recall: { query_text: "q", memory_layer: "all", time_range: "2025-01-01~" },
      },
    ]);
  });

  type Set = typeof valid;
  const cases: [string, (set: Set) => unknown, string][] = [
    [
      "an unknown expected key",
      (set) => {
        set.queries[0]!.expected[1] = "zz";
        return set;
      },
      "queries[0].expected[1]: no memory has the key 'zz'",
    ],
    [
      "a duplicate key",
      (set) => {
        set.memories[1]!.key = "m1";
        return set;
      },
      "memories[1].key: duplicate key 'm1'",
    ],
    [
      "a missing layer",
      (set) => {
        delete (set.memories[0] as { layer?: string }).layer;
        return set;
      },
      "memories[0].layer: ",
    ],
    [
      "a bad outcome",
      (set) => {
        set.memories[0]!.outcome = "meh";
        return set;
      },
      "memories[0].outcome: ",
    ],
    [
      "a semantic memory without value",
      (set) => {
        delete (set.memories[1] as { value_text?: string }).value_text;
        return set;
      },
      "memories[1].value_text: ",
    ],
    [
      "an unknown memory field",
      (set) => ({ ...set, memories: [{ ...set.memories[0], colour: "red" }, set.memories[1]] }),
      "memories[0].colour: unknown field",
    ],
    [
      "top_k, which the evaluation sets",
      (set) => ({ ...set, queries: [{ ...set.queries[0], top_k: 3 }] }),
      "queries[0].top_k: unknown field",
    ],
    [
      "a bad time range",
      (set) => {
        set.queries[0]!.time_range = "June";
        return set;
      },
      "queries[0].time_range: expected <from>~<to>",
    ],
    [
      "an empty expected list",
      (set) => ({ ...set, queries: [{ ...set.queries[0], expected: [] }] }),
      "queries[0].expected: must name at least one memory key",
    ],
    ["no queries", (set) => ({ ...set, queries: [] }), "queries: must hold at least one query"],
    ["a bad now", (set) => ({ ...set, now: "soon" }), "now: must be an ISO 8601 date or date-time"],
    ["not an object", () => [], "set.json: "],
  ];

  it.each(cases)("refuses %s, naming the field", (_name, mutate, message) => {
    const error = errorOf(() => parseRegressionSet(mutate(structuredClone(valid)), "set.json"));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.field).toBe("data");
    expect(error.message).toContain(message);
    expect(error.message.startsWith("data: set.json")).toBe(true);
  });
});
