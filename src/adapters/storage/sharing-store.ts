/** The sharing port over SQL (statements in sharing-sql): groups, trust, reviews. */
import type { MembershipChange, ReviewRequest, SharingStore } from "../../core/sharing/ports.js";
import type { Group, ReviewResult, SourceTrust, TrustLevel } from "../../core/sharing/types.js";
import type { SemanticMemory } from "../../core/types.js";
import type { SqlDriver } from "./executor.js";
import { guard } from "./guard.js";
import * as sharing from "./sharing-sql.js";

export class SqlSharingStore implements SharingStore {
  constructor(private readonly driver: SqlDriver) {}

  grant(change: MembershipChange): Promise<Group> {
    return guard("granting group membership", () =>
      this.driver.transaction((tx) => sharing.grantMembers(tx, change)),
    );
  }

  revoke(change: MembershipChange): Promise<Group> {
    return guard("revoking group membership", () =>
      this.driver.transaction((tx) => sharing.revokeMembers(tx, change)),
    );
  }

  groups(group?: string): Promise<Group[]> {
    return guard("reading groups", () => sharing.listGroups(this.driver, group));
  }

  groupsOf(agent: string): Promise<string[]> {
    return guard("reading an agent's groups", () => sharing.groupsOf(this.driver, agent));
  }

  setTrust(entry: SourceTrust): Promise<SourceTrust> {
    return guard("setting a source's trust", () =>
      this.driver.transaction((tx) => sharing.setSourceTrust(tx, entry)),
    );
  }

  trustOf(source: string): Promise<TrustLevel | undefined> {
    return guard("reading a source's trust", () => sharing.trustOf(this.driver, source));
  }

  listTrust(): Promise<SourceTrust[]> {
    return guard("reading source trust", () => sharing.listTrust(this.driver));
  }

  quarantined(query: { group?: string; limit: number }): Promise<SemanticMemory[]> {
    return guard("reading quarantined memories", () => sharing.listQuarantined(this.driver, query));
  }

  review(request: ReviewRequest): Promise<ReviewResult | "not_shared" | "rejected" | undefined> {
    return guard("reviewing a shared memory", () =>
      this.driver.transaction((tx) => sharing.reviewShared(tx, request)),
    );
  }
}
