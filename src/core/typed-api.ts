/**
 * The library's view of MemoryApi: every operation takes the input type of the zod schema that
 * validates it, so `storeEpisodic({ outcome: "maybe" })` or `recall({ query_text: 42 })` does
 * not compile. The surfaces (REST, MCP, CLI, the RPC between processes) keep MemoryApi, whose
 * inputs are `unknown`: they pass what they received, and the service validates it — once —
 * as it validates a library call. Dates may be given as `Date` where the service accepts them.
 */
import type { z } from "zod";
import type { AuditEntry } from "./audit.js";
import type {
  ConsolidateResponse,
  FeedbackResult,
  JobOptions,
  MaintainResult,
} from "./lifecycle/lifecycle.js";
import type { MemoryHistory, RestoreOutcome } from "./lifecycle/store-port.js";
import type { MemoryApi } from "./memory-api.js";
import type {
  AuditInput,
  ConsolidateInput,
  FeedbackInput,
  ForgetInput,
  MaintainInput,
  MemoryIdInput,
  RecallInput,
  StatsInput,
  StoreEpisodicInput,
  StoreSemanticInput,
  SummarizeInput,
} from "./schemas.js";
import type { RecallResponse } from "./service.js";
import type {
  GrantInput,
  GroupsInput,
  QuarantineInput,
  ReviewInput,
  SetTrustInput,
} from "./sharing/schemas.js";
import type { QuarantineList, SourcesList } from "./sharing/sharing.js";
import type { Caller, Group, ReviewResult, SourceTrust, StoredKnowledge } from "./sharing/types.js";
import type { SummaryResult } from "./summarize.js";
import type { ForgetResult, MemoryStats, StoreResult } from "./types.js";
import type { WorkingAppendInput, WorkingEndInput, WorkingGetInput } from "./working/schemas.js";
import type { WorkingAppendResult, WorkingContext, WorkingEndResult } from "./working/types.js";

/** `T` with the fields `K` also accepting a `Date` (turned into ISO 8601 before validation). */
type Dated<T, K extends keyof T> = Omit<T, K> & { [P in K]?: T[P] | Date };

export type EpisodeInput = Dated<z.input<typeof StoreEpisodicInput>, "occurred_at">;
export type KnowledgeInput = Dated<z.input<typeof StoreSemanticInput>, "valid_from">;

export interface TypedMemoryApi {
  storeEpisodic(input: EpisodeInput): Promise<StoreResult>;
  /** Many episodes in one transaction: one bad item writes nothing. */
  storeEpisodicBatch(inputs: readonly EpisodeInput[]): Promise<{ ids: string[] }>;
  storeSemantic(input: KnowledgeInput, caller?: Caller): Promise<StoredKnowledge>;
  recall(input: z.input<typeof RecallInput>): Promise<RecallResponse>;
  forget(input: z.input<typeof ForgetInput>): Promise<ForgetResult>;
  audit(
    input?: Dated<z.input<typeof AuditInput>, "since" | "until">,
  ): Promise<{ entries: AuditEntry[] }>;
  summarize(input: z.input<typeof SummarizeInput>): Promise<SummaryResult>;
  stats(input?: z.input<typeof StatsInput>): Promise<MemoryStats>;
  maintain(input?: z.input<typeof MaintainInput>, options?: JobOptions): Promise<MaintainResult>;
  consolidate(
    input?: z.input<typeof ConsolidateInput>,
    options?: JobOptions,
  ): Promise<ConsolidateResponse>;
  feedback(input: z.input<typeof FeedbackInput>): Promise<FeedbackResult>;
  restore(input: z.input<typeof MemoryIdInput>): Promise<RestoreOutcome>;
  history(input: z.input<typeof MemoryIdInput>): Promise<MemoryHistory>;
  workingAppend(input: z.input<typeof WorkingAppendInput>): Promise<WorkingAppendResult>;
  workingGet(input: z.input<typeof WorkingGetInput>): Promise<WorkingContext>;
  workingCompress(input: z.input<typeof WorkingGetInput>): Promise<WorkingContext>;
  workingEnd(input: z.input<typeof WorkingEndInput>): Promise<WorkingEndResult>;
  grant(input: z.input<typeof GrantInput>): Promise<Group>;
  revoke(input: z.input<typeof GrantInput>): Promise<Group>;
  groups(input?: z.input<typeof GroupsInput>): Promise<{ groups: Group[] }>;
  setTrust(input: z.input<typeof SetTrustInput>): Promise<SourceTrust>;
  sources(): Promise<SourcesList>;
  quarantined(input?: z.input<typeof QuarantineInput>): Promise<QuarantineList>;
  review(input: z.input<typeof ReviewInput>): Promise<ReviewResult>;
  access: MemoryApi["access"];
  ping: MemoryApi["ping"];
  migrate: MemoryApi["migrate"];
  close: MemoryApi["close"];
}

// The typed view covers every operation, and the service (a MemoryApi) is one: an operation
// added to MemoryApi without its typed form here fails to compile.
type Untyped = Exclude<keyof MemoryApi, keyof TypedMemoryApi>;
const everyOperationTyped: [Untyped] extends [never] ? true : Untyped = true;
void everyOperationTyped;
const serviceIsTyped = (memory: MemoryApi): TypedMemoryApi => memory;
void serviceIsTyped;
