/** What shared memory needs from the store. */
import type { SemanticMemory } from "../types.js";
import type { Group, ReviewDecision, ReviewResult, SourceTrust, TrustLevel } from "./types.js";

export interface MembershipChange {
  group: string;
  agent_ids: readonly string[];
  at: Date;
  reason: string;
}

export interface ReviewRequest {
  id: string;
  decision: ReviewDecision;
  reviewer: string;
  at: Date;
  reason: string;
}

export interface SharingStore {
  /** Adds agents to a group (creating it), recorded in the audit log; the group after. */
  grant(change: MembershipChange): Promise<Group>;
  /** Removes agents from a group, recorded in the audit log; the group after. */
  revoke(change: MembershipChange): Promise<Group>;
  /** Groups with their members, by name; one group when named. */
  groups(group?: string): Promise<Group[]>;
  /** The names of the groups an agent belongs to. */
  groupsOf(agent: string): Promise<string[]>;
  /** Sets a source's trust level, recorded in the audit log. */
  setTrust(entry: SourceTrust): Promise<SourceTrust>;
  /** The trust level set for a source, if any. */
  trustOf(source: string): Promise<TrustLevel | undefined>;
  listTrust(): Promise<SourceTrust[]>;
  /** Quarantined memories, oldest first (archived ones too: they still wait for review). */
  quarantined(query: { group?: string; limit: number }): Promise<SemanticMemory[]>;
  /**
   * Confirms or rejects a shared memory, in its history and the audit log. Undefined when no
   * semantic memory has the id; `not_shared` when it is private; `rejected` when asked to
   * confirm a rejected one.
   */
  review(request: ReviewRequest): Promise<ReviewResult | "not_shared" | "rejected" | undefined>;
}
