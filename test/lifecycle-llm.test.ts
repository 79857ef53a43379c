/**
 * The lifecycle's language-model paths with a scripted in-process model: valid answers are
 * used, broken JSON is retried once then falls back, failures fall back, and no bad answer
 * ever loses a memory.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fixedClock } from "../src/adapters/clock.js";
import { ErrorCode, HindsightError } from "../src/core/errors.js";
import type { ChatRequest } from "../src/core/ports.js";
import type { MemoryService } from "../src/core/service.js";
import { BACKENDS } from "./support/backends.js";
import {
  type Answer,
  atCosine,
  openLifecycleService,
  recordingLogger,
  ScriptedModel,
  steeredEmbedder,
} from "./support/lifecycle.js";

/** Cites the numbers of the failure lines of the consolidation prompt. */
const citeFailures = (request: ChatRequest) => {
  const lines = request.messages.at(-1)!.content.split("\n");
  const failures = lines
    .filter((line) => /^\d+\. \[failure\]/.test(line))
    .map((line) => Number(line.split(".")[0]));
  return JSON.stringify({
    patterns: [
      {
        rule: "Deploys fail when port 8080 is already taken",
        advice: "Free port 8080 (lsof -i :8080) before deploying",
        episodes: [...failures, 99],
      },
    ],
  });
};

const fact = (key: string, value: string) => `${key} ${value}`;

describe.each(BACKENDS)("lifecycle with a language model on $name", (backend) => {
  const opened: { memory: MemoryService; cleanup: () => Promise<void> }[] = [];

  async function open(script: Record<string, Answer[]>, vectors = new Map<string, number[]>()) {
    const { location, cleanup } = await backend.scratch();
    const llm = new ScriptedModel(script);
    const logger = recordingLogger();
    const memory = await openLifecycleService(location, {
      clock: fixedClock(new Date("2025-06-01T00:00:00Z")),
      llm,
      logger,
      embedder: steeredEmbedder(vectors),
    });
    opened.push({ memory, cleanup });
    return { memory, llm, logger };
  }

  afterEach(async () => {
    for (const { memory, cleanup } of opened.splice(0)) {
      await memory.close();
      await cleanup();
    }
  });

  async function episodes(memory: MemoryService, count = 12) {
    const { ids } = await memory.storeEpisodicBatch(
      Array.from({ length: count }, (_, i) => ({
        task_type: "deploy",
        summary: i % 3 === 0 ? `Deploy ${i} failed: port 8080 in use` : `Deploy ${i} succeeded`,
        outcome: i % 3 === 0 ? "failure" : "success",
        occurred_at: new Date(Date.UTC(2025, 4, 1 + i)).toISOString(),
      })),
    );
    return ids;
  }

  describe.skipIf(backend.skip !== undefined)("with the backend available", () => {
    it("consolidates with the model: its patterns, citing the episodes it named", async () => {
      const { memory, llm } = await open({ consolidation: [citeFailures] });
      const ids = await episodes(memory);
      const result = await memory.consolidate({});
      expect(result.groups[0]).toMatchObject({ method: "llm", episodes: 12 });
      expect(result.created).toHaveLength(1);
      const created = result.created[0]!;
      expect(created.key).toBe("Deploys fail when port 8080 is already taken");
      // Record 99 does not exist and is dropped; the four failures remain.
      expect(created.sources.sort()).toEqual(ids.filter((_, i) => i % 3 === 0).sort());
      const [stored] = await memory.storage.memories.getMany("semantic", [created.id]);
      expect(stored!.metadata).toMatchObject({
        consolidation: { method: "llm", model: "scripted:test" },
      });
      expect(stored!.confidence).toBeCloseTo(4 / 12, 3);
      const [request] = llm.asked("consolidation");
      expect(request).toMatchObject({ tier: "main", json: true });
      expect(request!.messages.at(-1)!.content).toContain("[failure]");
    });

    it("merges a consolidated pattern into the knowledge that already says it", async () => {
      const { memory } = await open({
        consolidation: [citeFailures],
        contradiction: [
          '{"judgements": [{"fact": 1, "same_subject": true, "contradicts": false}]}',
        ],
      });
      const known = await memory.storeSemantic({
        key_text: "Deploys fail when port 8080 is already taken",
        value_text: "Free port 8080 (lsof -i :8080) before deploying",
        task_type: "deploy",
        confidence: 0.5,
      });
      const ids = await episodes(memory);
      const result = await memory.consolidate({});
      expect(result).toMatchObject({ created: [], merged: 1 });
      expect(result.updated).toEqual([
        {
          id: known.id,
          key: "Deploys fail when port 8080 is already taken",
          value: "Free port 8080 (lsof -i :8080) before deploying",
          sources: expect.arrayContaining(ids.filter((_, i) => i % 3 === 0)),
        },
      ]);
      expect(result.updated[0]!.sources).toHaveLength(4);
      const history = await memory.history({ memory_id: known.id });
      expect(history.sources.sort()).toEqual(ids.filter((_, i) => i % 3 === 0).sort());
      expect(history.events.at(-1)).toMatchObject({
        event: "merged",
        details: { origin: expect.stringMatching(/consolidated from 4 deploy episodes \(llm\)/) },
      });
      expect((await memory.stats()).semantic.total).toBe(1);
    });

    it("repairs one broken answer by asking again", async () => {
      const { memory, llm } = await open({
        consolidation: ["Sure! Here are the patterns: {patterns: oops", citeFailures],
      });
      await episodes(memory);
      const result = await memory.consolidate({});
      expect(result.groups[0]!.method).toBe("llm");
      expect(llm.asked("consolidation")).toHaveLength(2);
    });

    it("falls back to statistics on broken JSON or a failing model, and logs it", async () => {
      for (const script of [
        ["not json at all", '{"patterns": []}'],
        [new HindsightError(ErrorCode.LLM_FAILED, "429 after 3 retries")],
      ]) {
        const { memory, logger } = await open({ consolidation: script });
        const ids = await episodes(memory);
        const result = await memory.consolidate({});
        expect(result.groups[0]!.method).toBe("statistical");
        const outcomes = result.created.find((c) => c.key === "Outcomes of deploy tasks")!;
        expect(outcomes.sources).toHaveLength(ids.length);
        expect(logger.lines.join("\n")).toMatch(
          /language model failed; consolidation falls back to its deterministic form/,
        );
        expect((await memory.stats()).llm?.fallbacks).toMatchObject({ consolidation: 1 });
        // Nothing lost, nothing left waiting: the episodes are consolidated once.
        expect((await memory.stats()).episodic).toEqual({ total: 12, active: 12, archived: 0 });
        expect((await memory.consolidate({})).consolidated_episodes).toBe(0);
      }
    });

    it("lets the model decide contradictions, and falls back to the key rule when it fails", async () => {
      const old = ["Deploy target", "the staging cluster in Frankfurt"] as const;
      const next = ["Where deploys go", "production cluster in Dublin from now on"] as const;
      const { memory, llm } = await open(
        {
          contradiction: [
            '{"judgements": [{"fact": 1, "same_subject": true, "contradicts": true}]}',
          ],
        },
        new Map([
          [fact(...old), atCosine(1)],
          [fact(...next), atCosine(0.7)],
        ]),
      );
      const first = await memory.storeSemantic({ key_text: old[0], value_text: old[1] });
      const second = await memory.storeSemantic({ key_text: next[0], value_text: next[1] });
      expect(second.superseded).toEqual([first.id]);
      expect(llm.asked("contradiction")[0]!.messages.at(-1)!.content).toContain("Frankfurt");
      const history = await memory.history({ memory_id: first.id });
      expect(history.events.at(-1)).toMatchObject({
        event: "superseded",
        details: { rule: "llm" },
      });

      // The script is used up: the model fails, and the same-key rule decides.
      const third = await memory.storeSemantic({
        key_text: "where deploys go!",
        value_text: "Tokyo",
      });
      expect(third.superseded).toEqual([second.id]);
      expect((await memory.history({ memory_id: second.id })).events.at(-1)).toMatchObject({
        details: { rule: "same key, different value" },
      });
    });

    it("merges near-duplicates with the model's text, or keeps the richer text when it fails", async () => {
      const a = ["Free the port", "lsof -i :8080"] as const;
      const b = ["Free port 8080 before deploying", "kill whatever holds it"] as const;
      const c = [
        "Free port 8080",
        "lsof -i :8080, then kill -9 the process that is holding the port open",
      ] as const;
      const { memory } = await open(
        {
          contradiction: [
            '{"judgements": [{"fact": 1, "same_subject": true, "contradicts": false}]}',
            '{"judgements": [{"fact": 1, "same_subject": true, "contradicts": false}]}',
          ],
          merge: [
            '```json\n{"key_text": "Free port 8080 before deploying", "value_text": "lsof -i :8080, then kill what holds it",}\n```',
            "{}",
            "{}",
          ],
        },
        new Map([
          [fact(...a), atCosine(1)],
          [fact(...b), atCosine(0.95)],
          [fact(...c), atCosine(0.95)],
          [
            fact("Free port 8080 before deploying", "lsof -i :8080, then kill what holds it"),
            atCosine(1),
          ],
        ]),
      );
      const first = await memory.storeSemantic({
        key_text: a[0],
        value_text: a[1],
        confidence: 0.5,
      });
      const merged = await memory.storeSemantic({
        key_text: b[0],
        value_text: b[1],
        confidence: 0.5,
      });
      expect(merged).toEqual({ id: first.id, merged_into: first.id });
      let [row] = await memory.storage.memories.getMany("semantic", [first.id]);
      expect(row).toMatchObject({
        key_text: "Free port 8080 before deploying",
        value_text: "lsof -i :8080, then kill what holds it",
      });
      expect(row!.confidence).toBeCloseTo(0.75, 5);

      // The model answers off-schema twice: the richer text is kept, nothing is lost.
      await memory.storeSemantic({ key_text: c[0], value_text: c[1], confidence: 0.5 });
      [row] = await memory.storage.memories.getMany("semantic", [first.id]);
      expect(row).toMatchObject({ key_text: c[0], value_text: c[1] });
      const events = (await memory.history({ memory_id: first.id })).events;
      expect(events.filter((e) => e.event === "merged").map((e) => e.details.method)).toEqual([
        "llm",
        "richer text kept",
      ]);
      expect((await memory.stats()).semantic.total).toBe(1);
    });
  });
});
