/**
 * The memory lifecycle on every backend, without a language model: decay and cold storage over
 * simulated months, consolidation into cited semantic memories, feedback, deduplication,
 * superseding and history.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "../src/adapters/clock.js";
import { createHashEmbedder } from "../src/adapters/embedders/hash.js";
import { silentLogger } from "../src/adapters/logger.js";
import { migrate } from "../src/adapters/storage/migrate.js";
import { MIGRATIONS } from "../src/adapters/storage/migrations.js";
import { openPGlite } from "../src/adapters/storage/pglite.js";
import { openPostgres } from "../src/adapters/storage/postgres.js";
import type { MemoryService } from "../src/core/service.js";
import { BACKENDS } from "./support/backends.js";
import {
  atCosine,
  type Clock,
  DAY,
  openLifecycleService,
  type ServiceOptions,
  steeredEmbedder,
} from "./support/lifecycle.js";

const START = new Date("2025-01-01T00:00:00Z");
const later = (days: number) => new Date(START.getTime() + days * DAY);

describe.each(BACKENDS)("memory lifecycle on $name", (backend) => {
  let clock: Clock;
  let memory: MemoryService;
  let cleanups: (() => Promise<void>)[] = [];

  async function open(options: ServiceOptions = {}): Promise<MemoryService> {
    const { location, cleanup } = await backend.scratch();
    const service = await openLifecycleService(location, { clock, ...options });
    cleanups.push(async () => {
      await service.close();
      await cleanup();
    });
    return service;
  }

  beforeEach(async () => {
    if (backend.skip) return;
    clock = fixedClock(START);
    memory = await open();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    cleanups = [];
  });
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  describe.skipIf(backend.skip !== undefined)("with the backend available", () => {
    async function deployEpisodes(count: number, taskType = "deploy", user?: string) {
      const { ids } = await memory.storeEpisodicBatch(
        Array.from({ length: count }, (_, i) => ({
          task_type: taskType,
          summary:
            i % 3 === 0
              ? `Deploy of service ${i} failed: port 8080 already in use`
              : `Deployed service ${i} to production after running the migrations`,
          outcome: i % 3 === 0 ? "failure" : "success",
          occurred_at: later(-count + i).toISOString(),
          ...(user ? { user_id: user } : {}),
        })),
      );
      return ids;
    }

    it("upgrades a version-1 database with memories in it", async () => {
      const { location, cleanup } = await backend.fresh();
      const driver =
        backend.name === "postgres"
          ? await openPostgres({ connectionString: location.databaseUrl!, logger: silentLogger })
          : await openPGlite({ dataDir: location.dataDir, logger: silentLogger });
      const embedder = createHashEmbedder();
      await migrate(driver, embedder, MIGRATIONS.slice(0, 1));
      const old = crypto.randomUUID();
      await driver.query(
        `INSERT INTO semantic_memories (id, key_text, value_text, embedding, search_text, terms,
           created_at, updated_at, valid_from)
         VALUES ($1, 'Release day', 'Tuesday', $2, 'release day tuesday', '{release,day,tuesday}',
           $3, $3, $3)`,
        [old, `[${(await embedder.embed(["Release day Tuesday"]))[0]!.join(",")}]`, START],
      );
      await driver.close();
      const upgraded = await openLifecycleService(location, { clock });
      cleanups.push(async () => {
        await upgraded.close();
        await cleanup();
      });
      expect(await upgraded.migrate()).toEqual({
        applied: MIGRATIONS.slice(1).map((m) => m.version),
        current: MIGRATIONS.at(-1)!.version,
        store: (await upgraded.stats()).store,
      });
      const [row] = await upgraded.storage.memories.getMany("semantic", [old]);
      expect(row).toMatchObject({ key_text: "Release day", decay_score: 1, superseded_by: null });
      // The generated key of the old row takes part in the contradiction rule at once.
      const next = await upgraded.storeSemantic({
        key_text: "release day",
        value_text: "Thursday",
      });
      expect(next.superseded).toEqual([old]);
      expect((await upgraded.maintain({})).semantic.scored).toBe(2);
    });

    it("archives unused episodes after 120 simulated days without losing any", async () => {
      const ids = await deployEpisodes(20);
      const keep = ids.slice(0, 3);
      // Recalled regularly: each recall is an access.
      for (let day = 10; day <= 110; day += 10) {
        clock.set(later(day));
        await memory.recall({ query_text: "billing", top_k: 1 }); // touches nothing of ours
        for (const id of keep) await memory.feedback({ memory_id: id, useful: true });
      }
      const before = await memory.stats();
      // A dry run names what a run would archive and changes nothing.
      const preview = await memory.maintain({ now: later(120).toISOString(), dry_run: true });
      expect(preview).toMatchObject({ dry_run: true, scored: 20, archived: 17, reactivated: 0 });
      expect("archived_ids" in preview.episodic && preview.episodic.archived_ids).toHaveLength(17);
      expect(await memory.stats()).toEqual(before);
      const untouched = await memory.history({ memory_id: ids[5]! });
      expect(untouched.events.map((e) => e.event)).toEqual(["created"]);
      const result = await memory.maintain({ now: later(120).toISOString() });
      expect(result.at).toEqual(later(120));
      expect(result.episodic.scored).toBe(20);
      expect(result.archived).toBe(17);
      expect(result.reactivated).toBe(0);
      const after = await memory.stats();
      expect(after.episodic).toEqual({ total: before.episodic.total, active: 3, archived: 17 });
      const archivedNow = (await memory.list({ status: "archived", limit: 100 })).memories;
      expect(archivedNow.map((m) => m.id).sort()).toEqual(
        "archived_ids" in preview.episodic ? [...preview.episodic.archived_ids].sort() : [],
      );

      // Left out of recall by default, still there with include_archived.
      const query = { query_text: "deploy port 8080 in use", top_k: 20, min_score: 0 };
      const active = await memory.recall({ ...query });
      expect(active.results.every((r) => keep.includes(r.id))).toBe(true);
      clock.set(later(121));
      const cold = await memory.recall({ ...query, include_archived: true });
      expect(cold.results.length).toBeGreaterThan(3);
      const archived = cold.results.filter((r) => r.status === "archived");
      expect(archived.length).toBeGreaterThan(0);
      expect(archived[0]!.decay_score).toBeLessThan(0.2);

      // Recalled again, they come back at the next maintenance.
      const again = await memory.maintain({ now: later(121).toISOString() });
      expect(again.reactivated).toBe(archived.length);
      const history = await memory.history({ memory_id: archived[0]!.id });
      expect(history.events.map((e) => e.event)).toEqual(["created", "archived", "reactivated"]);
      expect(history.events[1]!.reason).toMatch(/decay score/);
      expect(history.events[1]!.details).toMatchObject({ threshold: 0.2 });
    });

    it("scores with the documented formula and never deletes", async () => {
      const [id] = (await deployEpisodes(1)).slice(0);
      const result = await memory.maintain({ now: later(10).toISOString() });
      expect(result.scored).toBe(1);
      const [row] = await memory.storage.memories.getMany("episodic", [id!]);
      // Stored at START (recorded_at), never recalled: 1 · e^(−0.05·10).
      expect(row!.decay_score).toBeCloseTo(Math.exp(-0.5), 4);
      expect(row!.status).toBe("active");
    });

    it("keeps a soft-forgotten memory archived until restored by hand", async () => {
      const [id] = await deployEpisodes(1);
      await memory.forget({ memory_id: id! });
      await memory.recall({ query_text: "deploy port", include_archived: true, min_score: 0 });
      expect((await memory.maintain({})).reactivated).toBe(0);
      const restored = await memory.restore({ memory_id: id! });
      expect(restored).toEqual({
        id,
        layer: "episodic",
        previous_status: "archived",
        status: "active",
      });
      const history = await memory.history({ memory_id: id! });
      expect(history.events.map((e) => e.event)).toEqual(["created", "archived", "restored"]);
      expect(history.events[1]!.reason).toMatch(/forgotten/);
      await expect(memory.restore({ memory_id: crypto.randomUUID() })).rejects.toMatchObject({
        code: "NOT_FOUND",
        field: "memory_id",
      });
    });

    it("decays unused semantic confidence and archives low-confidence knowledge", async () => {
      const { id } = await memory.storeSemantic({
        key_text: "Staging uses port 9090",
        value_text: "Point the health check at 9090 on staging",
        confidence: 0.5,
      });
      // 30 grace days, then 0.005 per day: 0.5 · e^(−0.005·170) ≈ 0.214 at day 200.
      const first = await memory.maintain({ now: later(200).toISOString() });
      expect(first.semantic.confidence_lowered).toBe(1);
      const [row] = await memory.storage.memories.getMany("semantic", [id]);
      expect(row!.confidence).toBeCloseTo(0.5 * Math.exp(-0.005 * 170), 3);
      // Running again at the same moment decays nothing twice.
      const repeat = await memory.maintain({ now: later(200).toISOString() });
      expect(repeat.semantic.confidence_lowered).toBe(0);
      // Its decay score (0.214 · e^(−0.01·200) ≈ 0.03) is under the threshold: archived.
      expect(first.semantic.archived).toBe(1);
    });

    it("consolidates 12 similar episodes into semantic memory citing them, once", async () => {
      const ids = await deployEpisodes(12);
      await deployEpisodes(9, "code_review"); // under the threshold of 10
      // A dry run decides as the run will, and writes nothing: no knowledge, no episode marked.
      const preview = await memory.consolidate({ dry_run: true });
      expect(preview).toMatchObject({ dry_run: true, consolidated_episodes: 12 });
      expect(preview.created.map((c) => c.key)).toContain("Outcomes of deploy tasks");
      expect((await memory.stats()).semantic.total).toBe(0);
      const result = await memory.consolidate({});
      expect(result.created.map((c) => c.key).sort()).toEqual(
        preview.created.map((c) => c.key).sort(),
      );
      expect(result.groups).toEqual([
        { task_type: "deploy", user_id: null, agent_id: null, episodes: 12, method: "statistical" },
      ]);
      expect(result.consolidated_episodes).toBe(12);
      const outcomes = result.created.find((c) => c.key === "Outcomes of deploy tasks")!;
      expect(outcomes.sources.sort()).toEqual([...ids].sort());
      expect(outcomes.value).toMatch(/8 succeeded \(67%\), 4 failed \(33%\)/);
      expect(outcomes.value).toMatch(/statistical summary, no language model/);
      const failures = result.created.find((c) => c.key.startsWith("deploy fails"))!;
      expect(failures.key).toBe(
        "deploy fails when: port 8080 already in use (4 of 4 failures, 0 of 8 successes)",
      );
      expect(failures.sources).toHaveLength(4);
      const working = result.created.find((c) => c.key.startsWith("deploy succeeds"))!;
      expect(working.key).toMatch(/^deploy succeeds when: running the migrations/);

      const [stored] = await memory.storage.memories.getMany("semantic", [outcomes.id]);
      expect(stored).toMatchObject({
        task_type: "deploy",
        status: "active",
        metadata: { consolidation: { method: "statistical", kind: "outcomes", episodes: 12 } },
      });
      expect(stored!.confidence).toBeCloseTo(12 / 17, 3);
      const history = await memory.history({ memory_id: outcomes.id });
      expect(history.sources.sort()).toEqual([...ids].sort());
      expect(history.events[0]).toMatchObject({
        event: "created",
        reason: expect.stringMatching(/12 deploy episodes \(statistical\)/),
      });
      const episode = await memory.history({ memory_id: ids[0]! });
      expect(episode.consolidated_into).toContain(outcomes.id);
      expect(episode.events.map((e) => e.event)).toEqual(["created", "consolidated"]);

      // Nothing is consolidated twice.
      const again = await memory.consolidate({});
      expect(again).toMatchObject({ created: [], updated: [], consolidated_episodes: 0 });

      // Ten more: the newer statistic supersedes the older one; the failure terms repeat.
      await deployEpisodes(10);
      const next = await memory.consolidate({ task_type: "deploy" });
      expect(next.superseded).toContain(outcomes.id);
      const old = await memory.history({ memory_id: outcomes.id });
      expect(old.superseded_by).toBe(
        next.created.find((c) => c.key === "Outcomes of deploy tasks")!.id,
      );
    });

    it("consolidates per user: one user's episodes never feed another's knowledge", async () => {
      await deployEpisodes(10, "deploy", "alice");
      await deployEpisodes(5, "deploy", "bob");
      const result = await memory.consolidate({});
      expect(result.groups.map((g) => g.user_id)).toEqual(["alice"]);
      const [stored] = await memory.storage.memories.getMany("semantic", [result.created[0]!.id]);
      expect(stored!.user_id).toBe("alice");
    });

    it("raises confidence on useful feedback, lowers it otherwise, and archives below the minimum", async () => {
      const { id } = await memory.storeSemantic({
        key_text: "Run migrations before deploying",
        value_text: "npm run migrate",
        confidence: 0.5,
      });
      const up = await memory.feedback({ memory_id: id, useful: true });
      expect(up).toMatchObject({
        id,
        layer: "semantic",
        useful: true,
        previous_confidence: 0.5,
        status: "active",
      });
      expect(up.confidence).toBeCloseTo(0.6, 5);
      const down = await memory.feedback({ memory_id: id, useful: false, reason: "wrong service" });
      expect(down.confidence).toBeCloseTo(0.4, 5);
      await memory.feedback({ memory_id: id, useful: false });
      const last = await memory.feedback({ memory_id: id, useful: false });
      expect(last.confidence).toBeCloseTo(0, 5);
      expect(last.status).toBe("archived");
      const history = await memory.history({ memory_id: id });
      expect(history.events.map((e) => e.event)).toEqual([
        "created",
        "feedback",
        "feedback",
        "feedback",
        "feedback",
        "archived",
      ]);
      expect(history.events[2]).toMatchObject({
        reason: "wrong service",
        details: { useful: false },
      });
      // Restoring knowledge lifts its confidence to the minimum, so it is not archived again at once.
      await memory.restore({ memory_id: id });
      expect((await memory.maintain({})).semantic.archived).toBe(0);
      await expect(memory.feedback({ memory_id: id, useful: "yes" })).rejects.toMatchObject({
        code: "INVALID_INPUT",
        field: "useful",
      });
    });

    it("merges a new fact at cosine ≥ 0.9 into the existing one, and not below", async () => {
      const fact = (key: string, value: string) => `${key} ${value}`;
      memory = await open({
        embedder: steeredEmbedder(
          new Map([
            [fact("Free the port before deploying", "lsof -i :8080"), atCosine(1)],
            [fact("Free port 8080 first", "lsof -i :8080, then kill the process"), atCosine(0.92)],
            // 0.88 to the first fact, less to the second: nothing to merge with.
            [fact("Check the port", "ss -ltnp"), atCosine(0.88, 2)],
          ]),
        ),
      });
      const episodes = await deployEpisodes(2);
      const first = await memory.storeSemantic({
        key_text: "Free the port before deploying",
        value_text: "lsof -i :8080",
        confidence: 0.6,
        tags: ["ports"],
        source_episode_ids: [episodes[0]!],
      });
      const near = await memory.storeSemantic({
        key_text: "Free port 8080 first",
        value_text: "lsof -i :8080, then kill the process",
        confidence: 0.5,
        tags: ["deploy"],
        source_episode_ids: [episodes[1]!],
      });
      expect(near).toEqual({ id: first.id, merged_into: first.id });
      const [merged] = await memory.storage.memories.getMany("semantic", [first.id]);
      // The richer text is kept, confidence united: 1 − 0.4 · 0.5.
      expect(merged).toMatchObject({
        key_text: "Free port 8080 first",
        value_text: "lsof -i :8080, then kill the process",
        tags: ["ports", "deploy"],
      });
      expect(merged!.confidence).toBeCloseTo(0.8, 5);
      const history = await memory.history({ memory_id: first.id });
      expect(history.sources.sort()).toEqual([...episodes].sort());
      expect(history.events[1]).toMatchObject({
        event: "merged",
        details: {
          method: "richer text kept",
          previous: { key_text: "Free the port before deploying" },
        },
      });

      const far = await memory.storeSemantic({
        key_text: "Check the port",
        value_text: "ss -ltnp",
      });
      expect(far.merged_into).toBeUndefined();
      expect(far.id).not.toBe(first.id);
      expect((await memory.stats()).semantic.total).toBe(2);

      // A retried merge (same client id) merges once.
      const retryId = crypto.randomUUID();
      const request = {
        id: retryId,
        key_text: "Free the port before deploying",
        value_text: "lsof -i :8080",
      };
      const once = await memory.storeSemantic(request);
      const twice = await memory.storeSemantic(request);
      expect(twice).toEqual(once);
      const merges = (await memory.history({ memory_id: first.id })).events.filter(
        (e) => e.event === "merged",
      );
      expect(merges).toHaveLength(2);
    });

    it("supersedes a contradicted fact: valid_to set, kept in history, left out of recall", async () => {
      const old = await memory.storeSemantic({
        key_text: "User's preferred editor",
        value_text: "vim",
        user_id: "alice",
      });
      clock.set(later(5));
      const other = await memory.storeSemantic({
        key_text: "User's preferred editor",
        value_text: "vim",
        user_id: "bob",
      });
      expect(other.superseded).toBeUndefined();
      const current = await memory.storeSemantic({
        key_text: "user's preferred editor.",
        value_text: "Emacs, since March",
        user_id: "alice",
      });
      expect(current).toEqual({ id: expect.any(String), superseded: [old.id] });
      const [before] = await memory.storage.memories.getMany("semantic", [old.id]);
      expect(before).toMatchObject({
        valid_to: later(5),
        superseded_by: current.id,
        status: "active",
      });
      const recalled = await memory.recall({
        query_text: "preferred editor",
        memory_layer: "semantic",
        user_id: "alice",
        include_archived: true,
        min_score: 0,
      });
      expect(recalled.results.map((r) => r.id)).toEqual([current.id]);
      const history = await memory.history({ memory_id: old.id });
      expect(history.superseded_by).toBe(current.id);
      expect(history.events.map((e) => [e.event, e.reason])).toEqual([
        ["created", "stored"],
        ["superseded", "contradicted by a newer fact"],
      ]);
      expect(history.events[1]!.details).toMatchObject({ rule: "same key, different value" });
      expect((await memory.history({ memory_id: current.id })).supersedes).toEqual([old.id]);
    });
  });
});
