/**
 * `hindsight eval set` on the project's own bilingual regression set
 * (test/fixtures/regression-set.json: 72 memories of agent work, 60 queries), with the hash
 * embedder and with the default model (multilingual-e5-small), which also runs the bilingual
 * paraphrase set.
 *
 * Measured when the set was written (core at commit 71008ba):
 * - hash-v1: R@1 0.908, R@5 0.950, MRR 0.937 (57 of 60 queries find everything in the top 5)
 * - local:all-minilm-l6-v2-int8: R@1 0.908, R@5 0.950, MRR 0.928
 * With stemming, question words out of the keywords and weights 0.4/0.3 (issue #4):
 * - hash-v1: R@1 0.925, R@5 0.967, MRR 0.951 (58 of 60)
 * - local:all-minilm-l6-v2-int8: R@1 0.942, R@5 0.983, MRR 0.967 (59 of 60)
 * With the default model, multilingual-e5-small (issue #12):
 * - local:multilingual-e5-small-q4: R@1 0.975, R@5 1.000, MRR 0.992 (60 of 60); with queries
 *   embedded in both forms (query: and passage:) R@1 0.992, MRR 1.000
 * - on the paraphrase set (test/fixtures/paraphrase-set.json, 109 queries sharing no content
 *   word with their memory, a third across languages): R@5 0.839; hash 0.156; 0.913 since
 *   2026-12-07
 * The floors below leave a margin of 0.05 (three queries); a ranking change that loses more
 * than that is a regression to look at, or a reason to lower the floor knowingly.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, runCli } from "./support/cli.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SET = path.join(ROOT, "test", "fixtures", "regression-set.json");
const PARAPHRASES = path.join(ROOT, "test", "fixtures", "paraphrase-set.json");
const MODEL_DIR = path.join(ROOT, ".cache", "models", "multilingual-e5-small-q4");
const modelDir = existsSync(MODEL_DIR) ? MODEL_DIR : undefined;
const inCi = process.env.CI === "true";

const HASH_R5_FLOOR = 0.9;
const LOCAL_R5_FLOOR = 0.95;
/**
 * Measured 0.913 with the default model (0.890 before queries were embedded in both forms; hash
 * 0.174, MiniLM 0.472); see docs/evaluation.md.
 */
const PARAPHRASE_R5_FLOOR = 0.86;

interface SetOutput {
  overall: { "R@1": number; "R@5": number; MRR: number };
  queries: number;
  failures: { query_text: string; expected: string[]; got: string[] }[];
}

function explain(report: SetOutput): string {
  return JSON.stringify(report.failures, null, 1);
}

describe("hindsight eval set with the hash embedder", () => {
  it(`finds the expected memories in the top 5 (R@5 ≥ ${HASH_R5_FLOOR})`, async () => {
    const result = await runCli(["eval", "set", "--data", SET, "--json"], {
      HINDSIGHT_EMBEDDER: "hash",
    });
    const report = json<SetOutput>(result);
    expect(Object.keys(report)).toEqual(["overall", "queries", "failures"]);
    expect(report.queries).toBe(60);
    expect(report.overall["R@5"], explain(report)).toBeGreaterThanOrEqual(HASH_R5_FLOOR);
    expect(report.overall["R@1"]).toBeLessThanOrEqual(report.overall["R@5"]);
    for (const failure of report.failures) {
      expect(failure.got.length).toBeLessThanOrEqual(5);
      expect(failure.expected.some((key) => !failure.got.includes(key))).toBe(true);
    }
    expect(result.stderr).toContain("evaluating with embedder hash-v1");
  });

  it("is the same on every run (fixed clock, ties broken by storing order)", async () => {
    const env = { HINDSIGHT_EMBEDDER: "hash" };
    const first = json<SetOutput>(await runCli(["eval", "set", "--data", SET, "--json"], env));
    const second = json<SetOutput>(await runCli(["eval", "set", "--data", SET, "--json"], env));
    expect(second).toEqual(first);
  });
});

describe("hindsight eval set on a small file", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "hindsight-eval-set-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("lists the queries that missed, by key, and prints a summary without --json", async () => {
    const file = path.join(dir, "set.json");
    await writeFile(
      file,
      JSON.stringify({
        memories: [
          {
            key: "port",
            layer: "episodic",
            task_type: "deploy",
            summary: "Deploy failed: port 8080 in use",
            outcome: "failure",
          },
          {
            key: "disk",
            layer: "episodic",
            task_type: "ops",
            summary: "磁盘告警：清理了旧日志",
            outcome: "success",
          },
          {
            key: "rule",
            layer: "semantic",
            key_text: "Free the port before deploying",
            value_text: "lsof -i :8080",
          },
        ],
        queries: [
          { query_text: "port 8080", expected: ["port"] },
          { query_text: "磁盘告警", expected: ["disk"], task_type_filter: "deploy" },
          { query_text: "port 8080", expected: ["rule"], memory_layer: "semantic" },
        ],
      }),
    );
    const report = json<SetOutput>(
      await runCli(["eval", "set", "--data", file, "--json"], { HINDSIGHT_EMBEDDER: "hash" }),
    );
    expect(report.queries).toBe(3);
    // The task-type filter leaves the disk memory out: that query fails.
    expect(report.failures).toEqual([
      { query_text: "磁盘告警", expected: ["disk"], got: ["port"] },
    ]);
    expect(report.overall).toEqual({ "R@1": 0.6667, "R@5": 0.6667, MRR: 0.6667 });

    const human = await runCli(["eval", "set", "--data", file, "--no-progress"], {
      HINDSIGHT_EMBEDDER: "hash",
    });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain("3 queries: R@1 0.667, R@5 0.667, MRR 0.667");
    expect(human.stdout).toContain("磁盘告警\n    expected disk; got port");
  });

  it("refuses a bad file, naming the field", async () => {
    const file = path.join(dir, "bad.json");
    await writeFile(
      file,
      JSON.stringify({
        memories: [
          { key: "a", layer: "episodic", task_type: "t", summary: "s", outcome: "success" },
        ],
        queries: [{ query_text: "q", expected: ["b"] }],
      }),
    );
    const result = await runCli(["eval", "set", "--data", file], { HINDSIGHT_EMBEDDER: "hash" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "hindsight: --data (data): bad.json queries[0].expected[0]: no memory has the key 'b' [INVALID_INPUT]",
    );
  });
});

describe.runIf(modelDir === undefined && inCi)("eval set with the default model under CI", () => {
  it("has the model", () => {
    expect.fail(
      `the default embedding model is not in ${MODEL_DIR}; run npm run fetch:model before the ` +
        "tests (CI=true makes this an error)",
    );
  });
});

describe.skipIf(modelDir === undefined)("hindsight eval set with the default model", () => {
  // No embedder settings at all: what a new user gets (the suite's HINDSIGHT_EMBEDDER unset).
  const defaults = { HINDSIGHT_EMBEDDER: undefined, HINDSIGHT_MODELS_DIR: path.dirname(modelDir!) };

  it(`finds the expected memories in the top 5 (R@5 ≥ ${LOCAL_R5_FLOOR})`, async () => {
    const result = await runCli(["eval", "set", "--data", SET, "--json"], defaults);
    const report = json<SetOutput>(result);
    expect(report.queries).toBe(60);
    expect(report.overall["R@5"], explain(report)).toBeGreaterThanOrEqual(LOCAL_R5_FLOOR);
    expect(result.stderr).toContain("evaluating with embedder local:multilingual-e5-small-q4");
  });

  it(`finds memories asked for in other words and in the other language (R@5 ≥ ${PARAPHRASE_R5_FLOOR})`, async () => {
    const result = await runCli(["eval", "set", "--data", PARAPHRASES, "--json"], defaults);
    const report = json<SetOutput>(result);
    expect(report.queries).toBe(109);
    expect(report.overall["R@5"], explain(report)).toBeGreaterThanOrEqual(PARAPHRASE_R5_FLOOR);
  });

  it("where the word-matching hash embedder finds few of them", async () => {
    const result = await runCli(["eval", "set", "--data", PARAPHRASES, "--json"], {
      HINDSIGHT_EMBEDDER: "hash",
    });
    expect(json<SetOutput>(result).overall["R@5"]).toBeLessThan(0.35);
  });
});
