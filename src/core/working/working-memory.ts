/**
 * Working memory: sessions of typed items under a token budget. Appends are atomic in the
 * store; compression runs outside it and commits only if nobody compressed meanwhile, replacing
 * exactly the items it summarised, so concurrent agents lose nothing and never wait on a model.
 */
import { randomUUID } from "node:crypto";
import { ErrorCode, HindsightError, invalidInput } from "../errors.js";
import type { Clock, LanguageModel, Logger } from "../ports.js";
import type { TokenCounter } from "../summarize/summarize-memories.js";
import { validate } from "../validate.js";
import { measure } from "./context.js";
import { planCompression, protectedItems, shrinks } from "./plan.js";
import type { WorkingMemoryStore } from "./ports.js";
import { episodeSummary, sessionMetadata } from "./promote.js";
import {
  WorkingAppendInput,
  WorkingCompressInput,
  WorkingEndInput,
  WorkingGetInput,
  WorkingListInput,
} from "./schemas.js";
import { summarizeItems } from "./summarize.js";
import type {
  WorkingAppendResult,
  WorkingContext,
  WorkingEndResult,
  WorkingSession,
  WorkingSessionList,
  WorkingSessionListing,
} from "./types.js";

export interface WorkingMemoryOptions {
  store: WorkingMemoryStore;
  clock: Clock;
  logger: Logger;
  tokens: TokenCounter;
  /** Default token budget of a session's context. */
  budgetTokens: number;
  /** A session expires this long after its last write. */
  ttlSeconds: number;
  /** The cheap tier writes summaries; without a model, rules do. */
  llm?: LanguageModel | undefined;
  /** Where an ended session goes: the episodic layer. */
  storeEpisodic: (input: unknown) => Promise<{ id: string }>;
}

/**
 * The goal and the latest instruction always stay verbatim, so each may take at most this
 * share of the budget; the rest is for the summary and the recent items.
 */
const VERBATIM_SHARE = 0.35;
/** Compressions lost to concurrent ones are recomputed from the new state this many times. */
const MAX_COMPRESSIONS = 6;

export class WorkingMemory {
  /**
   * Compressions running in this process, by session: concurrent appends that push a session
   * over budget wait for the one compression instead of each paying for a model call.
   */
  private readonly compressing = new Map<string, Promise<unknown>>();

  constructor(private readonly options: WorkingMemoryOptions) {}

  get description(): string {
    return this.options.store.description;
  }

  close(): Promise<void> {
    return this.options.store.close();
  }

  /** Adds an item; compresses the session when the item takes it over its budget. */
  async append(input: unknown): Promise<WorkingAppendResult> {
    const request = validate(WorkingAppendInput, input);
    const ref = sessionRef(request);
    const { store, clock, ttlSeconds } = this.options;
    if (request.kind === "goal" || request.kind === "instruction" || request.budget) {
      const before = await store.load(ref.key, clock.now());
      const budget = request.budget ?? before?.budget ?? this.options.budgetTokens;
      const verbatim = protectedItems(before?.items ?? []);
      if (request.kind === "goal" || request.kind === "instruction") {
        this.checkVerbatim(request.content, budget, "content", request.kind);
      }
      if (request.budget) {
        // A new budget must still hold what is kept verbatim.
        for (const item of [verbatim.goal, verbatim.instruction]) {
          if (item && item.kind !== request.kind)
            this.checkVerbatim(item.content, budget, "budget", item.kind);
        }
      }
    }
    const now = clock.now();
    const seq = await store.append(
      ref.key,
      {
        id: request.id ?? randomUUID(),
        kind: request.kind,
        role: request.role,
        content: request.content,
        created_at: now,
      },
      { ttlSeconds, now, ...(request.budget ? { budget: request.budget } : {}) },
    );
    const { session, compressed } = await this.fit(ref, false);
    const budget = this.budgetOf(session);
    return {
      session: request.session_id,
      seq,
      tokens: measure(session, this.options.tokens).tokens,
      budget,
      compressed,
    };
  }

  /**
   * The session assembled within its budget. Without a budget it only reads: appends keep a
   * session within its budget, so there is nothing to compress. A new budget given here
   * becomes the session's, and the session is compressed to fit it — a write.
   */
  async get(input: unknown): Promise<WorkingContext> {
    const request = validate(WorkingGetInput, input);
    const ref = sessionRef(request);
    if (request.budget === undefined) return this.contextOf(ref, await this.loadExisting(ref));
    await this.applyBudget(ref, request.budget);
    const { session } = await this.fit(ref, false);
    return this.contextOf(ref, session);
  }

  /** Folds every item that need not stay verbatim into the summary now, whatever the budget. */
  async compress(input: unknown): Promise<WorkingContext> {
    const request = validate(WorkingCompressInput, input);
    const ref = sessionRef(request);
    await this.applyBudget(ref, request.budget);
    const { session } = await this.fit(ref, true);
    return this.contextOf(ref, session);
  }

  /** Promotes the session to an episodic memory, then clears it. */
  async end(input: unknown): Promise<WorkingEndResult> {
    const request = validate(WorkingEndInput, input);
    const { store, clock } = this.options;
    const ref = sessionRef(request);
    const session = await this.loadExisting(ref);
    const { summary, method } = await episodeSummary(
      this.options,
      session,
      request.task_type,
      request.outcome,
    );
    const episodic = await this.options.storeEpisodic({
      // Chosen here so a forwarded call that is retried stores the memory once.
      id: randomUUID(),
      task_type: request.task_type,
      summary,
      outcome: request.outcome,
      source: `working:${ref.id}`,
      metadata: sessionMetadata(session),
      occurred_at: clock.now().toISOString(),
      ...(request.tags ? { tags: request.tags } : {}),
      ...(request.user_id ? { user_id: request.user_id } : {}),
      ...(request.agent_id ? { agent_id: request.agent_id } : {}),
      // The episode remembers the session it was, so recall can be scoped to it.
      session_id: ref.id,
    });
    // Only after the memory is stored: a failure above leaves the session as it was.
    await store.discard(ref.key, session);
    this.options.logger.info("working-memory session ended", {
      session: ref.id,
      episodic_id: episodic.id,
    });
    return { episodic_id: episodic.id, summary, method };
  }

  /** The live sessions in scope, most recently written first, each measured as `get` would. */
  async list(input: unknown): Promise<WorkingSessionList> {
    const request = validate(WorkingListInput, input ?? {});
    const { store, clock } = this.options;
    const now = clock.now();
    const agent = request.agent_id;
    const live = (await store.listSessions(agent === undefined ? "" : agentPrefix(agent), now))
      .map((session) => ({ ...session, ref: refOfKey(session.key) }))
      // Exactly this agent's (an agent id may hold "/"), and never a key not of our making.
      .filter(({ ref }) => ref !== undefined && (agent === undefined || ref.agent === agent))
      .sort((a, b) => b.expires_at.getTime() - a.expires_at.getTime() || cmp(a.key, b.key));
    const page = await Promise.all(
      live.slice(0, request.limit).map(async ({ key, expires_at, ref }) => {
        const session = await store.load(key, now);
        return session && this.listing(ref!, session, expires_at);
      }),
    );
    const sessions = page.filter((entry): entry is WorkingSessionListing => entry !== null);
    // A session that expired between the listing and its load is no longer in scope.
    return { sessions, total: live.length - (page.length - sessions.length) };
  }

  private listing(
    ref: { id: string; agent: string | null },
    session: WorkingSession,
    expires_at: Date,
  ): WorkingSessionListing {
    const { goal } = protectedItems(session.items);
    const times = [
      ...session.items.map((item) => item.created_at.getTime()),
      ...(session.summary ? [session.summary.updated_at.getTime()] : []),
    ];
    return {
      session: ref.id,
      agent_id: ref.agent,
      items: session.items.length,
      tokens: measure({ ...session, session_id: ref.id }, this.options.tokens).tokens,
      budget: this.budgetOf(session),
      goal: goal?.content ?? (session.summary?.goal || null),
      summary: session.summary,
      last_activity_at: times.length > 0 ? new Date(Math.max(...times)) : null,
      expires_at,
    };
  }

  private checkVerbatim(content: string, budget: number, field: string, kind: string): void {
    const tokens = this.options.tokens.count(content);
    const allowed = Math.floor(budget * VERBATIM_SHARE);
    if (tokens > allowed) {
      throw invalidInput(
        field,
        `the ${kind} is ${tokens} tokens; a ${kind} stays verbatim and may take at most ${allowed} of the session's ${budget}-token budget`,
      );
    }
  }

  private async applyBudget(ref: SessionRef, budget: number | undefined): Promise<void> {
    if (budget === undefined) return;
    const { store, clock, ttlSeconds } = this.options;
    const session = await this.loadExisting(ref);
    const { goal, instruction } = protectedItems(session.items);
    for (const item of [goal, instruction]) {
      if (item) this.checkVerbatim(item.content, budget, "budget", item.kind);
    }
    if (!(await store.setBudget(ref.key, budget, ttlSeconds, clock.now()))) {
      throw noSession(ref.id);
    }
  }

  private async loadExisting(ref: SessionRef): Promise<WorkingSession> {
    const session = await this.options.store.load(ref.key, this.options.clock.now());
    if (!session) throw noSession(ref.id);
    // The caller's name for it, in its context and in the episode it becomes.
    return { ...session, session_id: ref.id };
  }

  private budgetOf(session: WorkingSession): number {
    return session.budget ?? this.options.budgetTokens;
  }

  /**
   * Compresses until the session fits its budget (or, forced, until everything compressible is
   * summarised). A compression that loses the race to a concurrent one is recomputed.
   */
  private async fit(
    ref: SessionRef,
    force: boolean,
  ): Promise<{ session: WorkingSession; compressed: boolean }> {
    const { store, clock, tokens, ttlSeconds } = this.options;
    let compressed = false;
    let forced = force;
    // Counts compressions tried here; waiting for another one's does not count.
    let attempt = 0;
    for (;;) {
      const session = await this.loadExisting(ref);
      const budget = this.budgetOf(session);
      const over = measure(session, tokens).tokens > budget;
      if ((!over && !forced) || attempt >= MAX_COMPRESSIONS) {
        if (over) {
          this.options.logger.warn("working-memory session is still over budget", {
            session: ref.id,
            budget,
          });
        }
        return { session, compressed };
      }
      const running = this.compressing.get(ref.key);
      if (running && !forced) {
        await running.catch(() => undefined);
        continue;
      }
      const plan = planCompression(session, budget, tokens, forced);
      if (!plan) {
        if (forced) {
          forced = false;
          continue;
        }
        return { session, compressed };
      }
      const compression = (async () => {
        const summary = await summarizeItems(
          this.options,
          session.summary,
          plan.compress,
          plan.keep,
          clock.now(),
        );
        // Compression never makes a session larger: a summary costing at least what it would
        // replace is not applied.
        if (!shrinks(session, plan, summary, tokens))
          return { summary, committed: false, larger: true };
        const committed = await store.compact(ref.key, {
          revision: session.revision,
          seqs: plan.compress.map((item) => item.seq),
          summary,
          ttlSeconds,
          now: clock.now(),
        });
        return { summary, committed, larger: false };
      })();
      this.compressing.set(ref.key, compression);
      let outcome: Awaited<typeof compression>;
      try {
        outcome = await compression;
      } finally {
        if (this.compressing.get(ref.key) === compression) this.compressing.delete(ref.key);
      }
      attempt++;
      const { summary, committed, larger } = outcome;
      if (larger) {
        this.options.logger.debug(
          "working-memory compression not applied: it would not save tokens",
          {
            session: ref.id,
            items: plan.compress.length,
          },
        );
        if (forced) {
          forced = false;
          continue;
        }
        if (over) {
          this.options.logger.warn("working-memory session is still over budget", {
            session: ref.id,
            budget,
          });
        }
        return { session, compressed };
      }
      if (committed) {
        compressed = true;
        forced = false;
        this.options.logger.debug("working-memory session compressed", {
          session: ref.id,
          items: plan.compress.length,
          method: summary.method,
        });
      }
    }
  }

  private contextOf(ref: SessionRef, session: WorkingSession): WorkingContext {
    const { context, tokens } = measure(session, this.options.tokens);
    return {
      session: ref.id,
      tokens,
      budget: this.budgetOf(session),
      summary: session.summary,
      items: session.items,
      context,
    };
  }
}

/**
 * A session as the caller names it (`id`) and as the store keeps it (`key`). Sessions belong to
 * their agent: the same id used by two agents is two sessions, so an agent can neither read,
 * append to, compress nor end another's, nor learn that it exists. Ids without an agent (no
 * agent_id: the operator, or a deployment without agents) keep their own names; a session id
 * cannot hold "/", so no plain id equals an agent's key.
 */
interface SessionRef {
  id: string;
  key: string;
}

const agentPrefix = (agent: string) => `agent:${agent}/`;

function sessionRef(request: { session_id: string; agent_id?: string | undefined }): SessionRef {
  const { session_id: id, agent_id: agent } = request;
  return { id, key: agent === undefined ? id : `${agentPrefix(agent)}${id}` };
}

/**
 * A store key read back: the caller's session id and its agent. Undefined for a key that is
 * neither form (another tenant's, nested under this key prefix in a shared Redis).
 */
function refOfKey(key: string): { id: string; agent: string | null } | undefined {
  const slash = key.lastIndexOf("/");
  if (slash < 0) return { id: key, agent: null };
  if (!key.startsWith("agent:")) return undefined;
  return { id: key.slice(slash + 1), agent: key.slice("agent:".length, slash) };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function noSession(sessionId: string): HindsightError {
  return new HindsightError(
    ErrorCode.NOT_FOUND,
    `no working-memory session ${sessionId} (never started, ended, or expired)`,
    { field: "session_id", details: { session_id: sessionId } },
  );
}
