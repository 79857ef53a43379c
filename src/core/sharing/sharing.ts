/**
 * Shared memory's rules: who may write to a group, how far a source is trusted, what is
 * quarantined, and the reviews that release or reject it. The service calls these; the store
 * keeps the state and the audit trail.
 */
import { ErrorCode, HindsightError, invalidInput, notFound } from "../errors.js";
import type { Clock, Logger } from "../ports.js";
import type { StoreSemanticInput } from "../schemas.js";
import type { SemanticMemory } from "../types.js";
import { validate } from "../validate.js";
import type { SharingStore } from "./ports.js";
import { GrantInput, GroupsInput, QuarantineInput, ReviewInput, SetTrustInput } from "./schemas.js";
import {
  type Group,
  PRIVATE,
  type ReviewResult,
  type Sharing,
  type SourceTrust,
  type TrustLevel,
} from "./types.js";

export interface SharingSettings {
  /** The trust of a source nobody has rated; `low` quarantines its shared writes. */
  defaultTrust: TrustLevel;
}

export interface SourcesList {
  sources: SourceTrust[];
  /** The trust of a source not in the list. */
  default_trust: TrustLevel;
}

export interface QuarantineList {
  memories: ({ layer: "semantic" } & SemanticMemory)[];
}

export const DEFAULT_SHARING: SharingSettings = { defaultTrust: "low" };

export function permissionDenied(field: string, message: string): HindsightError {
  return new HindsightError(ErrorCode.PERMISSION_DENIED, `${field}: ${message}`, { field });
}

export class SharedMemory {
  constructor(
    private readonly deps: {
      store: SharingStore;
      clock: Clock;
      logger: Logger;
      settings: SharingSettings;
    },
  ) {}

  /**
   * The sharing of a semantic memory about to be written: private without a group; otherwise
   * checked (source given, writer a member, source not blocked) and quarantined or confirmed
   * by its source's trust. Throws before anything is written.
   */
  async admit(
    item: Pick<StoreSemanticInput, "shared_group" | "source" | "agent_id">,
  ): Promise<Sharing> {
    const group = item.shared_group;
    if (group === undefined) return PRIVATE;
    if (item.source === undefined) {
      throw invalidInput("source", "is required to write to shared memory (shared_group given)");
    }
    const [found] = await this.deps.store.groups(group);
    if (!found) {
      throw new HindsightError(
        ErrorCode.NOT_FOUND,
        `shared_group: no group named '${group}'; grant agents to it first`,
        { field: "shared_group", details: { group } },
      );
    }
    if (
      item.agent_id !== undefined &&
      !found.members.some((member) => member.agent_id === item.agent_id)
    ) {
      throw permissionDenied("agent_id", `agent '${item.agent_id}' is not a member of '${group}'`);
    }
    const trust = (await this.deps.store.trustOf(item.source)) ?? this.deps.settings.defaultTrust;
    if (trust === "blocked") {
      throw permissionDenied("source", `source '${item.source}' is blocked from shared memory`);
    }
    return {
      shared_group: group,
      source_trust: trust,
      review_status: trust === "low" ? "quarantined" : "confirmed",
      reviewed_by: null,
      reviewed_at: null,
    };
  }

  grant(input: unknown): Promise<Group> {
    return this.changeMembership("grant", input);
  }

  revoke(input: unknown): Promise<Group> {
    return this.changeMembership("revoke", input);
  }

  private async changeMembership(action: "grant" | "revoke", input: unknown): Promise<Group> {
    const request = validate(GrantInput, input);
    const past = action === "grant" ? "granted" : "revoked";
    const group = await this.deps.store[action]({
      group: request.group,
      agent_ids: request.agent_ids,
      at: this.deps.clock.now(),
      reason: request.reason ?? `${past} on request`,
    });
    this.deps.logger.info(`group membership ${past}`, {
      group: request.group,
      agents: request.agent_ids.length,
    });
    return group;
  }

  async groups(input: unknown = {}): Promise<{ groups: Group[] }> {
    const request = validate(GroupsInput, input);
    return { groups: await this.deps.store.groups(request.group) };
  }

  async setTrust(input: unknown): Promise<SourceTrust> {
    const request = validate(SetTrustInput, input);
    return this.deps.store.setTrust({
      source: request.source,
      trust: request.trust,
      note: request.note ?? null,
      updated_at: this.deps.clock.now(),
    });
  }

  async sources(): Promise<SourcesList> {
    return {
      sources: await this.deps.store.listTrust(),
      default_trust: this.deps.settings.defaultTrust,
    };
  }

  async quarantined(input: unknown = {}): Promise<QuarantineList> {
    const request = validate(QuarantineInput, input);
    const memories = await this.deps.store.quarantined({
      ...(request.group === undefined ? {} : { group: request.group }),
      limit: request.limit,
    });
    return { memories: memories.map((memory) => ({ layer: "semantic" as const, ...memory })) };
  }

  async review(input: unknown): Promise<ReviewResult> {
    const request = validate(ReviewInput, input);
    const result = await this.deps.store.review({
      id: request.memory_id,
      decision: request.decision,
      reviewer: request.reviewer,
      at: this.deps.clock.now(),
      reason:
        request.reason ??
        (request.decision === "confirm" ? "confirmed on review" : "rejected on review"),
    });
    if (result === undefined) throw notFound("memory_id", request.memory_id);
    if (result === "not_shared") {
      throw invalidInput("memory_id", "is a private memory: only shared memories are reviewed");
    }
    this.deps.logger.info("shared memory reviewed", { ...result });
    return result;
  }
}
