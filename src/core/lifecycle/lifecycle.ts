/**
 * The memory lifecycle behind the service's maintain, consolidate, forget, feedback, restore
 * and history operations, and behind storeSemantic's deduplication and superseding.
 */
import { notFound } from "../errors.js";
import type { StoredMemory } from "../memories/ports.js";
import { parseInstant } from "../recall/time/range.js";
import {
  ConsolidateInput,
  FeedbackInput,
  ForgetInput,
  MaintainInput,
  MemoryIdInput,
} from "../schemas.js";
import type { ForgetResult, MemoryLayer } from "../types.js";
import { validate } from "../validate.js";
import { type ConsolidateResult, consolidate, emptyConsolidation } from "./consolidate.js";
import type { LifecycleDeps } from "./deps.js";
import { type AddedKnowledge, addKnowledge, type KnowledgeRequest } from "./knowledge.js";
import type {
  DecayCounts,
  DecayParameters,
  DecayPreview,
  FeedbackOutcome,
  MemoryHistory,
  RestoreOutcome,
} from "./ports.js";

/** Library-only options of the scheduled jobs, not part of any wire format. */
export interface JobOptions {
  /**
   * Skip (answer `skipped: true`) when another process on this database is running the same
   * job, instead of waiting for it. The scheduler inside `serve` runs jobs this way.
   */
  ifIdle?: boolean;
}

export interface MaintainResult extends DecayCounts {
  at: Date;
  episodic: DecayCounts | DecayPreview;
  semantic: DecayCounts | DecayPreview;
  skipped?: true;
  dry_run?: true;
}

export type ConsolidateResponse = ConsolidateResult & { skipped?: true; dry_run?: true };

export interface FeedbackResult extends FeedbackOutcome {
  useful: boolean;
}

const NO_COUNTS: DecayCounts = { scored: 0, archived: 0, reactivated: 0, confidence_lowered: 0 };

export class Lifecycle {
  constructor(private readonly deps: LifecycleDeps) {}

  private at(now: string | undefined): Date {
    return now ? parseInstant(now)! : this.deps.clock.now();
  }

  private decayParameters(layer: MemoryLayer): DecayParameters {
    const { decay, confidence } = this.deps.settings;
    const semantic = layer === "semantic";
    return {
      lambda: semantic ? decay.semanticLambda : decay.episodicLambda,
      accessWeight: decay.accessWeight,
      archiveThreshold: decay.archiveThreshold,
      // Confidence decays and archives knowledge; an episode's confidence is its writer's.
      minConfidence: semantic ? confidence.minimum : 0,
      confidenceDecayPerDay: semantic ? confidence.decayPerDay : 0,
      unusedGraceDays: confidence.unusedGraceDays,
    };
  }

  /** Decay and cold storage for every memory: set-based statements, a slice of a layer each. */
  async maintain(input: unknown, options: JobOptions = {}): Promise<MaintainResult> {
    const request = validate(MaintainInput, input);
    const at = this.at(request.now);
    if (request.dry_run) {
      // Judged exactly as a run would judge them, written nowhere: no lock is needed.
      const episodic = await this.deps.lifecycle.previewDecay(
        "episodic",
        this.decayParameters("episodic"),
        at,
      );
      const semantic = await this.deps.lifecycle.previewDecay(
        "semantic",
        this.decayParameters("semantic"),
        at,
      );
      return { at, ...sumOf(episodic, semantic), episodic, semantic, dry_run: true };
    }
    const run = await this.deps.lifecycle.exclusive("maintain", !options.ifIdle, async () => {
      const episodic = await this.deps.lifecycle.applyDecay(
        "episodic",
        this.decayParameters("episodic"),
        at,
      );
      const semantic = await this.deps.lifecycle.applyDecay(
        "semantic",
        this.decayParameters("semantic"),
        at,
      );
      return { episodic, semantic };
    });
    if (!run.ran) {
      return { at, ...NO_COUNTS, episodic: NO_COUNTS, semantic: NO_COUNTS, skipped: true };
    }
    const { episodic, semantic } = run.value;
    const result: MaintainResult = { at, ...sumOf(episodic, semantic), episodic, semantic };
    this.deps.logger.info("maintenance done", {
      scored: result.scored,
      archived: result.archived,
      reactivated: result.reactivated,
    });
    return result;
  }

  async consolidate(input: unknown, options: JobOptions = {}): Promise<ConsolidateResponse> {
    const request = validate(ConsolidateInput, input);
    const at = this.at(request.now);
    if (request.dry_run) {
      const preview = await consolidate(withoutWrites(this.deps), request.task_type, at);
      return { ...preview, dry_run: true };
    }
    const run = await this.deps.lifecycle.exclusive("consolidate", !options.ifIdle, () =>
      consolidate(this.deps, request.task_type, at),
    );
    if (run.ran) return run.value;
    return { ...emptyConsolidation(), skipped: true };
  }

  addKnowledge(request: KnowledgeRequest): Promise<AddedKnowledge> {
    return addKnowledge(this.deps, request);
  }

  /** Soft: archive (left out of recall, reversible). Hard: delete for good. */
  async forget(input: unknown): Promise<ForgetResult> {
    const request = validate(ForgetInput, input);
    const result = await this.deps.lifecycle.forget(
      request.memory_id,
      request.mode,
      this.deps.clock.now(),
      request.reason,
    );
    if (!result) throw notFound("memory_id", request.memory_id);
    this.deps.logger.info("memory forgotten", { ...result });
    return result;
  }

  async feedback(input: unknown): Promise<FeedbackResult> {
    const request = validate(FeedbackInput, input);
    const { confidence } = this.deps.settings;
    const outcome = await this.deps.lifecycle.applyFeedback({
      id: request.memory_id,
      useful: request.useful,
      delta: request.useful ? confidence.usefulStep : -confidence.notUsefulStep,
      minConfidence: confidence.minimum,
      reason: request.reason ?? null,
      at: this.deps.clock.now(),
    });
    if (!outcome) throw notFound("memory_id", request.memory_id);
    return { ...outcome, useful: request.useful };
  }

  async restore(input: unknown): Promise<RestoreOutcome> {
    const request = validate(MemoryIdInput, input);
    const outcome = await this.deps.lifecycle.restore(
      request.memory_id,
      this.deps.settings.confidence.minimum,
      this.deps.clock.now(),
    );
    if (!outcome) throw notFound("memory_id", request.memory_id);
    this.deps.logger.info("memory restored", { ...outcome });
    return outcome;
  }

  async history(input: unknown): Promise<MemoryHistory> {
    const request = validate(MemoryIdInput, input);
    const history = await this.deps.lifecycle.history(request.memory_id);
    if (!history) throw notFound("memory_id", request.memory_id);
    if (history.events.some((event) => event.event === "created")) return history;
    // Episodes are written in bulk without a creation event: their row says when.
    const [row] = await this.deps.memories.getMany(history.layer, [history.id]);
    return row ? { ...history, events: [createdEvent(row), ...history.events] } : history;
  }
}

function sumOf(episodic: DecayCounts, semantic: DecayCounts): DecayCounts {
  const sum = (key: keyof DecayCounts) => episodic[key] + semantic[key];
  return {
    scored: sum("scored"),
    archived: sum("archived"),
    reactivated: sum("reactivated"),
    confidence_lowered: sum("confidence_lowered"),
  };
}

/**
 * The lifecycle's ports with every write of consolidation left out, the reads kept: a dry run
 * decides exactly as a run would — which groups, which patterns, merge or supersede — and
 * reports it. (Each pattern is judged against the knowledge stored before the run: in a real
 * run a later pattern also sees an earlier one of the same run.)
 */
function withoutWrites(deps: LifecycleDeps): LifecycleDeps {
  const { knowledge, consolidation } = deps;
  return {
    ...deps,
    knowledge: {
      semanticNeighbours: (query) => knowledge.semanticNeighbours(query),
      mergedRequest: (requestId) => knowledge.mergedRequest(requestId),
      insertSemantic: async () => true,
      mergeSemantic: async () => true,
    },
    consolidation: {
      pendingEpisodeGroups: (min, taskType, limit) =>
        consolidation.pendingEpisodeGroups(min, taskType, limit),
      groupEpisodes: (group, limit) => consolidation.groupEpisodes(group, limit),
      markConsolidated: async () => {},
    },
  };
}

function createdEvent(row: StoredMemory) {
  return {
    event: "created" as const,
    at: row.layer === "episodic" ? row.recorded_at : row.created_at,
    reason: "stored",
    details: {},
  };
}
