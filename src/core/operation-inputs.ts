/**
 * The schema that validates each operation's input, by operation name: the CLI checks a
 * command's input with it before opening anything, and the library's types are derived from it
 * (core/typed-api). The service validates with the same schemas.
 */
import type { MemoryApi } from "./memory-api.js";
import {
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
import {
  GrantInput,
  GroupsInput,
  QuarantineInput,
  ReviewInput,
  SetTrustInput,
} from "./sharing/schemas.js";
import {
  WorkingAppendInput,
  WorkingCompressInput,
  WorkingEndInput,
  WorkingGetInput,
} from "./working/schemas.js";

export const OPERATION_INPUTS = {
  storeEpisodic: StoreEpisodicInput,
  storeSemantic: StoreSemanticInput,
  recall: RecallInput,
  forget: ForgetInput,
  audit: AuditInput,
  summarize: SummarizeInput,
  stats: StatsInput,
  maintain: MaintainInput,
  consolidate: ConsolidateInput,
  feedback: FeedbackInput,
  restore: MemoryIdInput,
  history: MemoryIdInput,
  workingAppend: WorkingAppendInput,
  workingGet: WorkingGetInput,
  workingCompress: WorkingCompressInput,
  workingEnd: WorkingEndInput,
  grant: GrantInput,
  revoke: GrantInput,
  groups: GroupsInput,
  setTrust: SetTrustInput,
  quarantined: QuarantineInput,
  review: ReviewInput,
} as const satisfies Partial<Record<keyof MemoryApi, unknown>>;

export type OperationWithInput = keyof typeof OPERATION_INPUTS;
