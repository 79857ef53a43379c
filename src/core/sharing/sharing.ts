/**
 * Shared memory's rules: who may write to a group, how far a source is trusted, what is
 * quarantined, and the reviews that release or reject it. The service calls these; the store
 * keeps the state and the audit trail.
 */
import { ErrorCode, HindsightError, invalidInput, notFound } from "../errors.js";
import type { StoredMemory } from "../memories/ports.js";
import type { Clock, Logger } from "../ports.js";
import type { StoreSemanticInput } from "../schemas.js";
import type { SemanticMemory } from "../types.js";

import { validate } from "../validate.js";
import type { SharingStore } from "./ports.js";
import { GrantInput, GroupsInput, QuarantineInput, ReviewInput, SetTrustInput } from "./schemas.js";
import {
  type Access,
  agentSource,
  type Caller,
  type Group,
  lowerTrust,
  PRIVATE,
  type ReviewResult,
  type Sharing,
  type SourceTrust,
  sourceKey,
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
    caller?: Caller,
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
    const trust = await this.trustOfWrite(item.source, caller);
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

  /**
   * The trust of a shared write: its source's. Through an agent's key, no more than the
   * agent's own (`agent:<id>` in the trust list): an agent names its source itself, so naming a
   * trusted one must not be enough to skip quarantine.
   */
  private async trustOfWrite(source: string, caller: Caller | undefined): Promise<TrustLevel> {
    const { store, settings } = this.deps;
    const sourceTrust = (await store.trustOf(sourceKey(source))) ?? settings.defaultTrust;
    if (caller === undefined) return sourceTrust;
    const agentTrust = (await store.trustOf(agentSource(caller.agent))) ?? settings.defaultTrust;
    return lowerTrust(sourceTrust, agentTrust);
  }

  /** What an agent may do with each of these memories (absent: no such memory). */
  async access(agent: string, memories: readonly StoredMemory[]): Promise<Record<string, Access>> {
    const groups = new Set(await this.deps.store.groupsOf(agent));
    return Object.fromEntries(
      memories.map((memory) => {
        if (memory.agent_id === agent) return [memory.id, "own"];
        const shared =
          memory.layer === "semantic" &&
          memory.review_status === "confirmed" &&
          memory.shared_group !== null &&
          groups.has(memory.shared_group);
        return [memory.id, shared ? "visible" : "hidden"];
      }),
    );
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
      source: sourceKey(request.source),
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
    if (result === "rejected") {
      throw invalidInput(
        "memory_id",
        "was rejected; store the knowledge again to have it reviewed afresh",
      );
    }
    this.deps.logger.info("shared memory reviewed", { ...result });
    return result;
  }
}
