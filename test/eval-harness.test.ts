/**
 * `hindsight eval locomo` and `hindsight eval memdaily` end to end, on tiny made-up files in
 * the two formats, with the hash embedder.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../src/adapters/logger.js";
import { openEvalRuntime, recallSupportsQueryTime } from "../src/eval/banks.js";
import { type LocomoReport, type LocomoTurn, turnContext } from "../src/eval/locomo.js";
import { type MemdailyReport, parseMemdaily, runMemdaily } from "../src/eval/memdaily.js";
import { json, runCli } from "./support/cli.js";

const turn = (speaker: string, dia_id: string, text: string, blip_caption?: string) => ({
  speaker,
  dia_id,
  text,
  ...(blip_caption ? { blip_caption, img_url: ["https://example.invalid/x.jpg"] } : {}),
});

const LOCOMO = [
  {
    sample_id: "fx-1",
    conversation: {
      speaker_a: "Mara",
      speaker_b: "Theo",
      session_1_date_time: "4:15 pm on 2 March, 2021",
      session_1: [
        turn("Mara", "D1:1", "Hi Theo! I finally adopted a greyhound named Biscuit."),
        turn("Theo", "D1:2", "Congrats! I started learning the cello last week."),
        turn("Mara", "D1:3", "Look at this.", "a photo of a purple lighthouse on a cliff"),
        turn("Theo", "D1:4", "Wow, where was that?"),
      ],
      // session 2 has no date: it takes session 1's.
      session_2: [
        turn("Mara", "D2:1", "We drove to Porto for the weekend."),
        turn("Theo", "D2:2", "My cello teacher moved to Vienna."),
      ],
      session_3_date_time: "10:02 am on 19 April, 2021",
      session_3: [
        turn("Mara", "D3:1", "Biscuit won a ribbon at the dog show!"),
        turn("Theo", "D3:2", "I'm baking sourdough every Sunday now."),
      ],
      session_4_date_time: "11:00 am on 1 May, 2021",
    },
    qa: [
      {
        question: "What is the name of Mara's greyhound?",
        answer: "Biscuit",
        evidence: ["D1:1"],
        category: 4,
      },
      {
        question: "Who shared a photo of a purple lighthouse?",
        answer: "Mara",
        evidence: ["D1:3"],
        category: 4,
      },
      {
        question: "Where did Theo's cello teacher move?",
        answer: "Vienna",
        evidence: ["D1:2; D2:2"],
        category: 1,
      },
      {
        question: "What did Mara's dog win?",
        answer: "a ribbon",
        evidence: ["D3:1", "D7:7"],
        category: 2,
      },
      { question: "Would Theo enjoy baking?", answer: "Likely yes", evidence: [], category: 3 },
      {
        question: "What did Theo's greyhound win?",
        adversarial_answer: "a ribbon",
        evidence: ["D3:1"],
        category: 5,
      },
    ],
  },
  {
    sample_id: "fx-2",
    conversation: {
      speaker_a: "Ivo",
      speaker_b: "Sol",
      session_1_date_time: "8:00 pm on 1 January, 2022",
      session_1: [
        turn("Ivo", "D1:1", "The kettle broke again."),
        turn("Sol", "D1:2", "Buy a copper kettle, they last."),
        turn("Ivo", "D1:3", "Fine, copper it is."),
      ],
    },
    qa: [
      {
        question: "What should Ivo buy to replace the kettle?",
        answer: "copper kettle",
        evidence: ["D1:2"],
        category: 4,
      },
    ],
  },
];

const message = (mid: number, text: string, day: number) => ({
  mid,
  message: text,
  time: `2024年04月0${day}日 周一 0${mid}:30`,
  place: "浙江杭州",
});

const MEMDAILY_SIMPLE = [
  {
    tid: 0,
    message_list: [
      message(0, "我将要参加星光音乐节。", 1),
      message(1, "星光音乐节的地点是杭州。", 1),
      message(2, "我表哥叫陈立。", 2),
      message(3, "陈立的生日是十月三日。", 2),
    ],
    question_list: [
      {
        qid: 0,
        question: "星光音乐节在哪里举办？",
        answer: "杭州",
        target_step_id: [1],
        time: "2024年04月03日 周三 10:00",
      },
    ],
  },
  {
    tid: 1,
    message_list: [
      message(0, "我的邻居叫林小雨。", 1),
      message(1, "林小雨养了一只橘猫。", 1),
      message(2, "我买了一台新的咖啡机。", 2),
    ],
    question_list: [
      {
        qid: 0,
        question: "林小雨养了什么宠物？",
        answer: "橘猫",
        target_step_id: [1],
        time: "2024年04月03日 周三 10:00",
      },
    ],
  },
];

const MEMDAILY_HYBRID = [
  {
    tid: 0,
    message_list: [
      message(0, "赵敏是我的同事，其身高是170cm。", 1),
      message(1, "我将要参加读书分享会。", 1),
      message(2, "读书分享会的规模是两百人。", 2),
      message(3, "钱多多是我的表姐，其身高是165cm。", 2),
      message(4, "我明天要去北京出差。", 3),
      message(5, "我的车是蓝色的。", 3),
    ],
    question_list: [
      {
        qid: 0,
        question: "赵敏和钱多多谁的身高更高？",
        answer: "赵敏",
        target_step_id: [0, 3],
        time: "2024年04月04日 周四 10:00",
      },
    ],
  },
];

let dir: string;
let locomoFile: string;
let memdailyDir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hindsight-eval-"));
  locomoFile = join(dir, "locomo-fixture.json");
  await writeFile(locomoFile, JSON.stringify(LOCOMO));
  memdailyDir = join(dir, "memdaily");
  await mkdir(memdailyDir);
  await writeFile(join(memdailyDir, "a_simple.json"), JSON.stringify(MEMDAILY_SIMPLE));
  await writeFile(join(memdailyDir, "b_hybrid.json"), JSON.stringify(MEMDAILY_HYBRID));
  await writeFile(join(memdailyDir, "notes.txt"), "not data");
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const HASH = { HINDSIGHT_EMBEDDER: "hash", DATABASE_URL: undefined };

describe("hindsight eval locomo", () => {
  it("reports recall@k overall and per category, one bank per conversation", async () => {
    const details = join(dir, "locomo-details.jsonl");
    const result = await runCli(
      ["eval", "locomo", "--data", locomoFile, "--k", "10,1,2", "--details", details, "--json"],
      HASH,
    );
    const report = json<LocomoReport>(result);
    expect(Object.keys(report)).toEqual([
      "overall",
      "by_category",
      "questions",
      "turns",
      "embedder",
      "seconds",
      "recall_ms",
    ]);
    expect(Object.keys(report.overall)).toEqual(["R@1", "R@2", "R@10"]);
    expect(report.questions).toBe(7);
    expect(report.turns).toBe(11);
    expect(report.embedder).toBe("hash-v1");
    expect(report.seconds).toBeGreaterThan(0);
    expect(report.recall_ms.p50).toBeGreaterThan(0);
    expect(report.recall_ms.p99).toBeGreaterThanOrEqual(report.recall_ms.p50);
    // Top 10 holds every turn of these small banks: recall@10 depends only on the labels.
    // D7:7 names no turn and still counts; a question without evidence counts 1.
    expect(report.overall["R@10"]).toBeCloseTo(6.5 / 7, 4);
    expect(report.by_category).toEqual({
      "1": expect.objectContaining({ "R@10": 1, questions: 1 }),
      "2": expect.objectContaining({ "R@1": expect.any(Number), "R@10": 0.5, questions: 1 }),
      "3": { "R@1": 1, "R@2": 1, "R@10": 1, questions: 1 },
      "4": expect.objectContaining({ "R@10": 1, questions: 3 }),
      "5": expect.objectContaining({ "R@10": 1, questions: 1 }),
    });
    expect(report.by_category["2"]!["R@1"]).toBeLessThanOrEqual(0.5);

    const records = (await readFile(details, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records).toHaveLength(7);
    const byQuestion = new Map(records.map((record) => [record.question, record]));
    // A word found only in one turn puts that turn first; the photo caption is part of it.
    expect(byQuestion.get("What is the name of Mara's greyhound?").retrieved[0]).toBe("D1:1");
    expect(byQuestion.get("Who shared a photo of a purple lighthouse?").retrieved[0]).toBe("D1:3");
    expect(byQuestion.get("Where did Theo's cello teacher move?").evidence).toEqual([
      "D1:2",
      "D2:2",
    ]);
    expect(byQuestion.get("What should Ivo buy to replace the kettle?")).toMatchObject({
      sample_id: "fx-2",
      category: "4",
      retrieved: expect.arrayContaining(["D1:1", "D1:2", "D1:3"]),
    });
    // Each bank holds only its own conversation.
    expect(byQuestion.get("What should Ivo buy to replace the kettle?").retrieved).toHaveLength(3);

    expect(result.stderr).toContain("1 sessions have no readable date");
    expect(result.stderr).toContain("eval locomo: ");
    expect(result.stdout.trim().split("\n")).toHaveLength(1);
  });

  it("limits conversations and prints a table without --json", async () => {
    const result = await runCli(
      ["eval", "locomo", "--data", locomoFile, "--limit-conversations", "1", "--no-progress"],
      HASH,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("LoCoMo retrieval: 6 questions over 8 turns");
    expect(result.stdout).toMatch(/4 single-hop\s+2\s/);
    expect(result.stdout).toContain("R@25");
    expect(result.stderr).not.toContain("eval locomo: ");
  });

  it("takes --reference-time and says when recall cannot use it yet", async () => {
    const result = await runCli(
      ["eval", "locomo", "--data", locomoFile, "--reference-time", "last-session", "--json"],
      HASH,
    );
    expect(json<LocomoReport>(result).questions).toBe(7);
    if (!recallSupportsQueryTime()) expect(result.stderr).toContain("takes no query_time yet");
  });

  it.each([
    [["--k", "0,5"], "--k (k): '0' is not a whole number between 1 and 1000"],
    [["--limit-conversations", "none"], "--limit-conversations (limit_conversations): 'none'"],
    [["--reference-time", "soon"], "--reference-time (reference_time): 'soon' is not one of"],
    [["--context-turns", "-1"], "--context-turns (context_turns): '-1' is not a whole number"],
  ])("refuses %j with exit code 2", async (flags, message) => {
    const result = await runCli(["eval", "locomo", "--data", locomoFile, ...flags], HASH);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe("");
  });

  it("names the file and field of bad data", async () => {
    const bad = join(dir, "bad-locomo.json");
    await writeFile(bad, JSON.stringify([{ ...LOCOMO[1], qa: [{ evidence: ["D1:1"] }] }]));
    const result = await runCli(["eval", "locomo", "--data", bad, "--json"], HASH);
    expect(result.code).toBe(2);
    const { error } = JSON.parse(result.stderr.trim().split("\n").at(-1)!);
    expect(error).toMatchObject({ code: "INVALID_INPUT", field: "data", flag: "--data (data)" });
    expect(error.message).toContain("bad-locomo.json [0].qa[0].question: ");

    const missing = await runCli(["eval", "locomo", "--data", join(dir, "nope.json")], HASH);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("cannot read");
  });
});

describe("hindsight eval memdaily", () => {
  it("reports R@1, R@5 and MRR overall and per file, one bank per trajectory", async () => {
    const result = await runCli(["eval", "memdaily", "--data", memdailyDir, "--json"], HASH);
    const report = json<MemdailyReport>(result);
    expect(Object.keys(report)).toEqual([
      "overall",
      "by_file",
      "questions",
      "messages",
      "embedder",
      "seconds",
      "recall_ms",
    ]);
    expect(Object.keys(report.overall)).toEqual(["R@1", "R@5", "MRR"]);
    expect(report.questions).toBe(3);
    expect(report.messages).toBe(13);
    expect(Object.keys(report.by_file)).toEqual(["a_simple", "b_hybrid"]);
    // Banks of at most five messages: everything is in the top 5.
    expect(report.by_file.a_simple).toMatchObject({ "R@5": 1, questions: 2 });
    expect(report.by_file.a_simple!.MRR).toBeGreaterThan(0);
    // Two targets: R@1 is at most one half.
    expect(report.by_file.b_hybrid!["R@1"]).toBeLessThanOrEqual(0.5);
    expect(report.by_file.b_hybrid!.questions).toBe(1);
    expect(result.stderr).toContain("eval memdaily: ");
  });

  it("reads a single file and limits trajectories per file", async () => {
    const one = json<MemdailyReport>(
      await runCli(
        ["eval", "memdaily", "--data", join(memdailyDir, "a_simple.json"), "--json"],
        HASH,
      ),
    );
    expect(one).toMatchObject({ questions: 2, messages: 7 });
    const limited = json<MemdailyReport>(
      await runCli(
        ["eval", "memdaily", "--data", memdailyDir, "--limit-trajectories", "1", "--json"],
        HASH,
      ),
    );
    expect(limited).toMatchObject({ questions: 2, messages: 10 });
    expect(Object.keys(limited.by_file)).toEqual(["a_simple", "b_hybrid"]);
  });

  it("mixes messages of other trajectories into each bank with --distractors", async () => {
    const mixed = json<MemdailyReport>(
      await runCli(
        ["eval", "memdaily", "--data", memdailyDir, "--distractors", "3", "--json"],
        HASH,
      ),
    );
    // Three banks, each with three more messages; the same questions.
    expect(mixed).toMatchObject({ questions: 3, messages: 13 + 3 * 3 });
    const refused = await runCli(
      ["eval", "memdaily", "--data", memdailyDir, "--distractors", "0"],
      HASH,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--distractors");
  });

  it("ranks the same in an emptied bank as in a new database", async () => {
    const trajectories = [
      ...parseMemdaily(MEMDAILY_SIMPLE, "a_simple.json"),
      ...parseMemdaily(MEMDAILY_HYBRID, "b_hybrid.json"),
      ...parseMemdaily(MEMDAILY_SIMPLE, "c_again.json"),
    ];
    const runtime = await openEvalRuntime(
      { dataDir: "memory://", embedder: { kind: "hash" } },
      silentLogger,
    );
    try {
      const retrieved = async (freshBanks: boolean) => {
        const lists: string[][] = [];
        const report = await runMemdaily(trajectories, {
          runtime,
          freshBanks,
          onQuestion: (record) => lists.push(record.retrieved),
        });
        return { lists, overall: report.overall };
      };
      const reused = await retrieved(false);
      const fresh = await retrieved(true);
      expect(reused.lists).toEqual(fresh.lists);
      expect(reused.overall).toEqual(fresh.overall);
      // Nothing of an earlier bank is left in a later one.
      expect(reused.lists[0]).toEqual(reused.lists[3]);
      expect(reused.lists.every((list) => list.every((mid) => mid !== ""))).toBe(true);
    } finally {
      await runtime.close();
    }
  });

  it("names the field of bad data", async () => {
    const bad = join(dir, "bad-memdaily.json");
    await writeFile(
      bad,
      JSON.stringify([{ tid: 0, message_list: [{ mid: 0 }], question_list: [] }]),
    );
    const result = await runCli(["eval", "memdaily", "--data", bad], HASH);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("bad-memdaily.json [0].message_list[0].message: ");
  });
});

describe("LoCoMo turn context", () => {
  const at = new Date("2023-05-08T13:56:00Z");
  const turn = (dia_id: string, session: number): LocomoTurn => ({
    dia_id,
    session,
    summary: `A: turn ${dia_id}`,
    occurred_at: at,
  });
  const turns = [
    turn("D1:1", 1),
    turn("D1:2", 1),
    turn("D1:3", 1),
    turn("D2:1", 2),
    turn("D2:2", 2),
  ];

  it("is the turns before, in the same session only, oldest first", () => {
    expect(turnContext(turns, 2)).toBe("A: turn D1:1\nA: turn D1:2");
    expect(turnContext(turns, 4)).toBe("A: turn D2:1");
    expect(turnContext(turns, 3)).toBeUndefined();
    expect(turnContext(turns, 0)).toBeUndefined();
  });

  it("takes as many turns as asked, none for 0", () => {
    expect(turnContext(turns, 2, 1)).toBe("A: turn D1:2");
    expect(turnContext(turns, 2, 0)).toBeUndefined();
  });
});
