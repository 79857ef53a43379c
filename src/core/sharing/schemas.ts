/** Input schemas of the shared-memory operations, shared by the library, CLI and REST. */
import { z } from "zod";
import { LIMITS } from "../schemas.js";
import { text } from "../text-schema.js";
import { REVIEW_DECISIONS, TRUST_LEVELS } from "./types.js";

/** Group names and agent ids are scope values: the same limits. */
export const GroupName = text(LIMITS.scopeChars).describe(
  "A named group of agents that share semantic memories, e.g. 'support-team'.",
);
const AgentIds = z
  .array(text(LIMITS.scopeChars))
  .min(1)
  .max(100)
  .describe("agent_id values, as the agents give them when they store and recall.");
const Reason = text(1000).optional().describe("Why, in a few words; kept in the audit log.");

export const GrantInput = z.strictObject({
  group: GroupName,
  agent_ids: AgentIds,
  reason: Reason,
});
export type GrantInput = z.input<typeof GrantInput>;

export const GroupsInput = z.strictObject({
  group: GroupName.optional().describe("Only this group."),
});
export type GroupsInput = z.input<typeof GroupsInput>;

export const SetTrustInput = z.strictObject({
  source: text(LIMITS.scopeChars).describe(
    "A source as writers name it in `source` (a tool, pipeline, agent or person).",
  ),
  trust: z
    .enum(TRUST_LEVELS)
    .describe(
      "blocked: its shared writes are refused; low: quarantined until confirmed; normal, high: " +
        "recalled by the group at once. Knowledge from a source never overrides knowledge from a more trusted one.",
    ),
  note: text(1000).optional().describe("Why this level, for whoever reads the list."),
});
export type SetTrustInput = z.input<typeof SetTrustInput>;

export const QuarantineInput = z.strictObject({
  group: GroupName.optional().describe("Only memories shared with this group."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .describe("Oldest first; at most this many."),
});
export type QuarantineInput = z.input<typeof QuarantineInput>;

export const ReviewInput = z.strictObject({
  memory_id: z.uuid().describe("A shared semantic memory."),
  decision: z
    .enum(REVIEW_DECISIONS)
    .describe("confirm: the group recalls it from now on; reject: nobody does (it is archived)."),
  reviewer: text(LIMITS.scopeChars).describe("Who decided: a person or a trusted reviewer's name."),
  reason: Reason,
});
export type ReviewInput = z.input<typeof ReviewInput>;
