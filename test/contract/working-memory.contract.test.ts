/**
 * The working-memory contract: the same cases on Redis (the machine's real one, database 11),
 * the shared embedded directory (PGlite) and PostgreSQL.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cl100k } from "../../src/adapters/tokens.js";
import { createHindsight, type Hindsight, type HindsightConfigInput } from "../../src/index.js";
import { createTestSchema, postgresSkipReason } from "../support/backends.js";
import { REDIS_URL, redisSkipReason, testPrefix } from "../support/redis.js";

const APPENDER = fileURLToPath(new URL("../support/working-appender.mjs", import.meta.url));

interface WorkingBackend {
  name: string;
  skip: string | undefined;
  open(): Promise<{ config: HindsightConfigInput; cleanup: () => Promise<void> }>;
}

const BACKENDS: WorkingBackend[] = [
  {
    name: "redis",
    skip: redisSkipReason,
    open: async () => {
      const { keyPrefix, cleanup } = testPrefix();
      return {
        config: { dataDir: "memory://", working: { redisUrl: REDIS_URL, keyPrefix } },
        cleanup,
      };
    },
  },
  {
    name: "embedded (shared directory)",
    skip: undefined,
    open: async () => {
      const dataDir = await mkdtemp(join(tmpdir(), "hindsight-working-"));
      return { config: { dataDir }, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
    },
  },
  {
    name: "postgres",
    skip: postgresSkipReason,
    open: async () => {
      const { url, drop } = await createTestSchema();
      return { config: { databaseUrl: url, dataDir: "memory://" }, cleanup: drop };
    },
  },
];

async function errorOf(promise: Promise<unknown>): Promise<{ code: string; field?: string }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught as { code: string; field?: string },
  );
  expect(error, "expected the call to fail").toBeDefined();
  return error!;
}

/** Appends from a process of its own: `count` appends, all in flight at once. */
function appendFromProcess(
  config: HindsightConfigInput,
  session: string,
  label: string,
  count: number,
): Promise<{ seqs?: number[]; error?: unknown }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [
      APPENDER,
      JSON.stringify(config),
      session,
      label,
      String(count),
    ]);
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", () => resolve(JSON.parse(stdout)));
  });
}

const step = (i: number) =>
  `Step ${i}: ran the migration batch ${i}, compared row counts of orders_${i} and logged the result.`;

describe.each(BACKENDS)("working memory on $name", (backend) => {
  let config: HindsightConfigInput;
  let cleanup: () => Promise<void>;
  let memory: Hindsight;
  const logs: string[] = [];

  beforeAll(async () => {
    if (backend.skip) return;
    ({ config, cleanup } = await backend.open());
    const log = (message: string) => logs.push(message);
    memory = await createHindsight(
      { ...config, embedder: { kind: "hash" } },
      {
        logger: { debug: () => {}, info: log, warn: log, error: log },
      },
    );
  });
  afterAll(async () => {
    await memory?.close();
    await cleanup?.();
  });

  describe.skipIf(backend.skip !== undefined)("with the backend available", () => {
    it("says on the log where working memory is kept", () => {
      const expected =
        backend.name === "redis"
          ? "working memory in Redis"
          : "working memory kept in the database";
      expect(logs.join("\n")).toContain(expected);
    });

    it("appends typed items in order and returns them as a context within budget", async () => {
      const session = "basic";
      const first = await memory.workingAppend({
        session_id: session,
        kind: "goal",
        role: "user",
        content: "Migrate the orders table to the new schema",
      });
      const second = await memory.workingAppend({
        session_id: session,
        role: "assistant",
        content: "I will copy the table in batches.",
      });
      expect([first.seq, second.seq]).toEqual([1, 2]);
      expect(second).toMatchObject({ session, budget: 4000, compressed: false });
      const context = await memory.workingGet({ session_id: session });
      expect(context).toMatchObject({ session, budget: 4000, summary: null });
      expect(context.items.map((item) => [item.seq, item.kind, item.role, item.content])).toEqual([
        [1, "goal", "user", "Migrate the orders table to the new schema"],
        [2, "message", "assistant", "I will copy the table in batches."],
      ]);
      expect(context.items[0]!.created_at).toBeInstanceOf(Date);
      expect(context.context).toContain("#1 goal (user): Migrate the orders table");
      expect(context.tokens).toBe(cl100k.count(context.context));
    });

    it("stays within budget far past it, keeping goal, latest instruction and open calls verbatim", async () => {
      const session = "long";
      const goal = "Migrate the orders table to the new schema without downtime";
      let appended = 0;
      type Item = Parameters<typeof memory.workingAppend>[0];
      const append = async (kind: Item["kind"], role: Item["role"], content: string) => {
        appended++;
        return memory.workingAppend({ session_id: session, kind, role, content, budget: 1000 });
      };
      await append("goal", "user", goal);
      await append("instruction", "user", "Start with the staging database.");
      for (let i = 0; i < 60; i++) {
        await append("tool_call", "assistant", `run_sql("copy batch ${i}")`);
        await append("result", "tool", step(i));
      }
      await append("result", "tool", "Error: batch 60 failed with a lock timeout on orders_60.");
      const latest = "Retry batch 60 with a smaller batch size, then switch production over.";
      await append("instruction", "user", latest);
      const open = 'run_sql("copy batch 60 with batch_size=500")';
      const last = await append("tool_call", "assistant", open);
      expect(last.tokens).toBeLessThanOrEqual(1000);

      const context = await memory.workingGet({ session_id: session });
      expect(context.budget).toBe(1000);
      expect(context.tokens).toBeLessThanOrEqual(1000);
      const contents = context.items.map((item) => item.content);
      expect(contents).toContain(goal);
      expect(contents).toContain(latest);
      expect(contents).toContain(open);
      const summary = context.summary!;
      expect(summary).toMatchObject({ method: "deterministic" });
      for (const part of [summary.goal, summary.done, summary.blocked, summary.next]) {
        expect(typeof part).toBe("string");
      }
      const length = [...`${summary.goal}${summary.done}${summary.blocked}${summary.next}`].length;
      expect(length).toBeLessThanOrEqual(200);
      expect(summary.goal).toContain("Migrate the orders table");
      expect(summary.done.length).toBeGreaterThan(0);
      // Nothing lost: every item is either kept or counted in the summary.
      expect(summary.items_summarized + context.items.length).toBe(appended);
      expect(context.context).toMatch(/Goal: .*\nDone: .*\nBlocked: .*\nNext: /u);
    });

    it("stores a retried append once", async () => {
      const id = "5b0a4a53-2c0e-4c36-9d0e-5d5f3b1f1a11";
      const item = { session_id: "retry", id, role: "user" as const, content: "only once" };
      const first = await memory.workingAppend(item);
      const again = await memory.workingAppend(item);
      expect(again.seq).toBe(first.seq);
      expect((await memory.workingGet({ session_id: "retry" })).items).toHaveLength(1);
    });

    it("loses nothing when two processes append 50 items each at once", async () => {
      const session = "concurrent";
      const [a, b] = await Promise.all([
        appendFromProcess(config, session, "a", 50),
        appendFromProcess(config, session, "b", 50),
      ]);
      expect(a!.error).toBeUndefined();
      expect(b!.error).toBeUndefined();
      const seqs = [...a!.seqs!, ...b!.seqs!].sort((x, y) => x - y);
      expect(seqs).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      const context = await memory.workingGet({ session_id: session });
      expect(context.items).toHaveLength(100);
      const contents = new Set(context.items.map((item) => item.content.split(":")[0]));
      for (const label of ["a", "b"])
        for (let i = 0; i < 50; i++) expect(contents).toContain(`${label} item ${i}`);
    }, 60_000);

    it("loses nothing when concurrent appends compress at the same time", async () => {
      const session = "concurrent-compressing";
      await memory.workingAppend({
        session_id: session,
        kind: "goal",
        role: "user",
        content: "Check every shard of the orders table",
        budget: 1000,
      });
      const results = await Promise.all([
        appendFromProcess(config, session, "a", 50),
        appendFromProcess(config, session, "b", 50),
      ]);
      for (const result of results) expect(result.error).toBeUndefined();
      const context = await memory.workingGet({ session_id: session });
      expect(context.tokens).toBeLessThanOrEqual(1000);
      expect(context.summary).not.toBeNull();
      expect(context.summary!.items_summarized + context.items.length).toBe(101);
      const seqs = context.items.map((item) => item.seq);
      expect(new Set(seqs).size).toBe(seqs.length);
      expect(context.items[0]!.kind).toBe("goal");
    }, 60_000);

    it("applies a budget given on get to the session", async () => {
      const session = "budget";
      await memory.workingAppend({
        session_id: session,
        kind: "goal",
        role: "user",
        content: "Tidy the logs",
      });
      for (let i = 0; i < 40; i++) {
        await memory.workingAppend({
          session_id: session,
          role: "tool",
          kind: "result",
          content: step(i),
        });
      }
      expect((await memory.workingGet({ session_id: session })).summary).toBeNull();
      const small = await memory.workingGet({ session_id: session, budget: 1000 });
      expect(small.budget).toBe(1000);
      expect(small.tokens).toBeLessThanOrEqual(1000);
      expect(small.summary).not.toBeNull();
      expect((await memory.workingGet({ session_id: session })).budget).toBe(1000);
    });

    it("rejects a goal or budget that cannot stay verbatim, writing nothing", async () => {
      const huge = "word ".repeat(600);
      const goal = await errorOf(
        memory.workingAppend({
          session_id: "too-big",
          kind: "goal",
          role: "user",
          content: huge,
          budget: 1000,
        }),
      );
      expect(goal).toMatchObject({ code: "INVALID_INPUT", field: "content" });
      expect((await errorOf(memory.workingGet({ session_id: "too-big" }))).code).toBe("NOT_FOUND");
      await memory.workingAppend({
        session_id: "big-goal",
        kind: "goal",
        role: "user",
        content: huge,
      });
      const budget = await errorOf(memory.workingGet({ session_id: "big-goal", budget: 1000 }));
      expect(budget).toMatchObject({ code: "INVALID_INPUT", field: "budget" });
    });

    it("names bad input by field and reports an unknown session as NOT_FOUND", async () => {
      expect(
        // @ts-expect-error: a role the schema refuses, as a JavaScript caller could send
        await errorOf(memory.workingAppend({ session_id: "x", role: "robot", content: "hi" })),
      ).toMatchObject({
        code: "INVALID_INPUT",
        field: "role",
      });
      expect(
        await errorOf(memory.workingAppend({ session_id: "a b", role: "user", content: "hi" })),
      ).toMatchObject({
        code: "INVALID_INPUT",
        field: "session_id",
      });
      expect(await errorOf(memory.workingGet({ session_id: "never-started" }))).toMatchObject({
        code: "NOT_FOUND",
        field: "session_id",
      });
    });

    it("compresses a session on request through memory_summarize's session_id", async () => {
      const session = "summarize";
      await memory.workingAppend({
        session_id: session,
        kind: "goal",
        role: "user",
        content: "Rotate the API keys",
      });
      await memory.workingAppend({
        session_id: session,
        role: "assistant",
        content: "Listed 3 keys to rotate.",
      });
      await memory.workingAppend({
        session_id: session,
        kind: "result",
        role: "tool",
        content: "Key 1 rotated.",
      });
      // A session this small would only grow by compressing: it is left as it is.
      const tiny = await memory.summarize({ session_id: session });
      expect(tiny.session!.items).toHaveLength(3);
      expect(tiny.session!.summary).toBeNull();
      expect(tiny.summary).toBe("");
      await memory.workingAppend({
        session_id: session,
        kind: "result",
        role: "tool",
        content: `Key 2 rotated. ${"The old key stays valid for 24 hours while clients reload; ".repeat(6)}`,
      });
      const result = await memory.summarize({ session_id: session });
      expect(result.method).toBe("working_memory");
      expect(result.session!.items.map((item) => item.kind)).toEqual(["goal"]);
      expect(result.session!.summary!.items_summarized).toBe(3);
      expect(result.summary).toContain("Goal: Rotate the API keys");
      // Steps that differ only in a number are one step.
      expect(result.summary).toContain("Done: Listed 3 keys to rotate; Key 1–2 rotated");
      const error = await errorOf(memory.summarize({ session_id: session, query_text: "keys" }));
      expect(error.code).toBe("INVALID_INPUT");
    });

    it("keeps each agent's sessions its own, even under the same id", async () => {
      const session = "shared-name";
      const as = (agent_id?: string) => (agent_id === undefined ? {} : { agent_id });
      const append = (content: string, agent?: string) =>
        memory.workingAppend({ session_id: session, role: "user", content, ...as(agent) });
      await append("planner: the release checklist", "planner");
      // Another agent neither reads nor ends the planner's session, nor learns that it exists.
      // Called one at a time: a rejection not yet awaited would be an unhandled one.
      const calls = [
        () => memory.workingGet({ session_id: session, agent_id: "intruder" }),
        () => memory.workingCompress({ session_id: session, agent_id: "intruder" }),
        () => memory.summarize({ session_id: session, agent_id: "intruder" }),
        () =>
          memory.workingEnd({
            session_id: session,
            task_type: "x",
            outcome: "success",
            agent_id: "intruder",
          }),
      ];
      for (const call of calls) {
        expect((await errorOf(call())).code).toBe("NOT_FOUND");
      }
      // Its append under the same id starts a session of its own.
      expect((await append("intruder: a note", "intruder")).seq).toBe(1);
      await append("operator: no agent");
      const contents = async (agent?: string) =>
        (await memory.workingGet({ session_id: session, ...as(agent) })).items.map(
          (item) => item.content,
        );
      expect(await contents("planner")).toEqual(["planner: the release checklist"]);
      expect(await contents("intruder")).toEqual(["intruder: a note"]);
      expect(await contents()).toEqual(["operator: no agent"]);
      const planner = await memory.workingGet({ session_id: session, agent_id: "planner" });
      expect(planner.session).toBe(session);
      expect(planner.context).toContain(session);
      expect(planner.context).not.toContain("agent:");
      const ended = await memory.workingEnd({
        session_id: session,
        task_type: "release",
        outcome: "success",
        agent_id: "planner",
      });
      expect(await contents("intruder")).toEqual(["intruder: a note"]);
      const { results } = await memory.recall({
        query_text: "release checklist",
        agent_id: "planner",
        session_id: session,
        min_score: 0,
      });
      expect(results.find((result) => result.id === ended.episodic_id)).toMatchObject({
        agent_id: "planner",
        session_id: session,
      });
    });

    it("lists live sessions, latest first, each agent's exactly, with their budget use", async () => {
      const append = (
        session_id: string,
        agent_id: string,
        content: string,
        kind: "goal" | "message" = "message",
      ) => memory.workingAppend({ session_id, agent_id, role: "user", kind, content });
      await append("first", "lister", "Migrate the invoices table", "goal");
      await append("second", "lister", "a note on the second session");
      // An agent whose id extends the other's with "/" is another agent, listed apart.
      await append("nested", "lister/sub", "the nested agent's session");
      await append("first", "lister", "a later note on the first session");
      const listed = await memory.workingList({ agent_id: "lister" });
      expect(listed.total).toBe(2);
      expect(listed.sessions.map((entry) => entry.session)).toEqual(["first", "second"]);
      const first = listed.sessions[0]!;
      const context = await memory.workingGet({ session_id: "first", agent_id: "lister" });
      expect(first).toMatchObject({
        agent_id: "lister",
        items: 2,
        tokens: context.tokens,
        budget: context.budget,
        goal: "Migrate the invoices table",
        summary: null,
      });
      expect(first.last_activity_at?.getTime()).toBe(context.items[1]!.created_at.getTime());
      expect(first.expires_at.getTime()).toBeGreaterThan(Date.now());
      const page = await memory.workingList({ agent_id: "lister", limit: 1 });
      expect(page).toMatchObject({ total: 2, sessions: [{ session: "first" }] });
      expect((await memory.workingList({ agent_id: "lister/sub" })).sessions).toMatchObject([
        { session: "nested", agent_id: "lister/sub", goal: null },
      ]);
      // Without an agent: every session, the agents' among them.
      const all = await memory.workingList({ limit: 200 });
      const names = all.sessions.map((entry) => `${entry.agent_id}:${entry.session}`);
      expect(names).toEqual(expect.arrayContaining(["lister:first", "lister/sub:nested"]));
      expect(all.total).toBe(all.sessions.length);
      expect((await errorOf(memory.workingList({ limit: 0 }))).field).toBe("limit");
      await memory.workingEnd({
        session_id: "second",
        agent_id: "lister",
        task_type: "note",
        outcome: "success",
      });
      expect((await memory.workingList({ agent_id: "lister" })).total).toBe(1);
    });

    it("ends a session as a recallable episodic memory and clears it", async () => {
      const session = "ending";
      await memory.workingAppend({
        session_id: session,
        kind: "goal",
        role: "user",
        content: "Renew the TLS certificate of the billing gateway",
      });
      await memory.workingAppend({
        session_id: session,
        kind: "tool_call",
        role: "assistant",
        content: "certbot renew --cert-name billing",
      });
      await memory.workingAppend({
        session_id: session,
        kind: "result",
        role: "tool",
        content: "Certificate renewed, valid until 2026-03-01.",
      });
      const ended = await memory.workingEnd({
        session_id: session,
        task_type: "tls_renewal",
        outcome: "success",
      });
      expect(ended.method).toBe("deterministic");
      expect([...ended.summary].length).toBeLessThanOrEqual(80);
      expect(ended.summary).toContain("Renew the TLS certificate");
      expect((await errorOf(memory.workingGet({ session_id: session }))).code).toBe("NOT_FOUND");
      const { results } = await memory.recall({
        query_text: "TLS certificate billing gateway renewal",
      });
      const found = results.find((result) => result.id === ended.episodic_id);
      expect(found).toMatchObject({
        layer: "episodic",
        task_type: "tls_renewal",
        outcome: "success",
        session_id: session,
      });
      expect(found!.metadata).toMatchObject({ working_session: session });
      // The episode is scoped to its session: recall can ask for that session alone.
      const bySession = await memory.recall({
        query_text: "certificate renewal",
        session_id: session,
        min_score: 0,
      });
      expect(bySession.results.map((result) => result.id)).toEqual([ended.episodic_id]);
      expect((found!.metadata as { transcript: unknown[] }).transcript).toHaveLength(3);
      expect(
        (
          await errorOf(
            memory.workingEnd({ session_id: session, task_type: "x", outcome: "success" }),
          )
        ).code,
      ).toBe("NOT_FOUND");
    });
  });
});
