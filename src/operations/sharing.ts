/** Shared memory: groups of agents, source trust, the quarantine and its reviews. */
import {
  GroupOutput,
  GroupsOutput,
  QuarantineOutput,
  ReviewOutput,
  SourcesOutput,
  SourceTrustOutput,
} from "../core/outputs.js";
import {
  GrantInput,
  GroupsInput,
  QuarantineInput,
  ReviewInput,
  SetTrustInput,
} from "../core/sharing/schemas.js";
import type { Group, ReviewResult } from "../core/sharing/types.js";
import { defineOperations, type OperationSpec } from "./spec.js";

const groupText = (group: Group) =>
  group.members.length === 0
    ? `${group.group}: no members`
    : `${group.group}: ${group.members.map((member) => member.agent_id).join(", ")}`;

/** grant and revoke: the same input and route shape, opposite effects. */
function membership<K extends "grant" | "revoke">(action: K) {
  const granting = action === "grant";
  return {
    summary: granting
      ? "Add agents to a group: they recall its confirmed knowledge and may write to it"
      : "Take agents out of a group",
    input: GrantInput,
    output: GroupOutput,
    effect: granting ? "write" : "destructive",
    agent: {
      kind: "operator",
      needs: granting ? "granting group membership" : "revoking group membership",
    },
    http: [
      {
        method: "post",
        path: `/v1/groups/{group}/${action}`,
        tag: "sharing",
        params: { group: "group" },
        status: 200,
        returns: "The group after the change.",
        errors: [400, 413, 503],
      },
    ],
    mcp: null,
    cli: [
      {
        command: `share ${action}`,
        description: granting
          ? "let agents recall (and write) the knowledge shared with a group"
          : "take agents out of a group",
        args: [
          { field: "group", syntax: "<group>", help: "group name" },
          { field: "agent_ids", syntax: "<agent...>", help: "agent ids" },
        ],
        options: { reason: { flag: "--reason <text>", help: "why, kept in the audit log" } },
        human: groupText,
      },
    ],
  } satisfies OperationSpec<K>;
}

const reviewCommand = (decision: "confirm" | "reject") => ({
  command: `share ${decision}`,
  description:
    decision === "confirm"
      ? "release a quarantined shared memory to its group"
      : "reject a shared memory: nobody recalls it (it is archived, its history kept)",
  args: [{ field: "memory_id", syntax: "<id>", help: "memory id" }],
  options: {
    reviewer: { flag: "--by <reviewer>", help: "who decided" },
    reason: { flag: "--reason <text>", help: "why, kept in its history and the audit log" },
  },
  fixed: { decision },
  human: (result: ReviewResult) =>
    `${result.id}: ${result.review_status} by ${result.reviewed_by}${result.changed ? "" : " (already)"}`,
});

export const sharingOperations = defineOperations({
  grant: membership("grant"),
  revoke: membership("revoke"),

  groups: {
    summary: "The groups of agents and their members",
    input: GroupsInput,
    output: GroupsOutput,
    effect: "read",
    // An agent sees its own groups only: which groups exist is the operator's to see.
    agent: { kind: "custom" },
    http: [
      {
        method: "get",
        path: "/v1/groups",
        tag: "sharing",
        query: ["group"],
        status: 200,
        returns: "Groups by name.",
        errors: [400, 503],
      },
    ],
    mcp: null,
    cli: [
      {
        command: "share groups",
        description: "list the groups and their members",
        args: [{ field: "group", syntax: "[group]", help: "only this group" }],
        human: (result) =>
          result.groups.length === 0 ? "no groups" : result.groups.map(groupText).join("\n"),
      },
    ],
  },

  setTrust: {
    summary: "Set how far a source is trusted: blocked, low, normal or high",
    description:
      "blocked: its writes to shared memory are refused (403). low: they are quarantined — " +
      "recalled only by the writing agent — until a reviewer confirms them. normal, high: the " +
      "group recalls them at once. Shared knowledge from a source never merges into or " +
      "supersedes knowledge from a more trusted one.",
    input: SetTrustInput,
    output: SourceTrustOutput,
    effect: "write",
    agent: { kind: "operator", needs: "setting a source's trust" },
    http: [
      {
        method: "post",
        path: "/v1/sources/{source}",
        tag: "sharing",
        params: { source: "source" },
        status: 200,
        returns: "The source's trust.",
        errors: [400, 413, 503],
      },
    ],
    mcp: null,
    cli: [
      {
        command: "share trust",
        description: "set how far a source is trusted: blocked | low | normal | high",
        args: [
          { field: "source", syntax: "<source>", help: "a source as writers name it in --source" },
          { field: "trust", syntax: "<level>", help: "blocked | low | normal | high" },
        ],
        options: { note: { flag: "--note <text>", help: "why this level" } },
        human: (result) => `${result.source}: ${result.trust}`,
      },
    ],
  },

  sources: {
    summary: "The sources with a trust level, and the default trust of the others",
    input: null,
    output: SourcesOutput,
    effect: "read",
    agent: { kind: "operator", needs: "the trust list" },
    http: [
      {
        method: "get",
        path: "/v1/sources",
        tag: "sharing",
        status: 200,
        returns: "Sources by name.",
        errors: [503],
      },
    ],
    mcp: null,
    cli: [
      {
        command: "share sources",
        description: "list the sources with a trust level, and the default for the others",
        human: (result) =>
          [
            ...result.sources.map(
              (entry) => `${entry.source}: ${entry.trust}${entry.note ? `  (${entry.note})` : ""}`,
            ),
            `any other source: ${result.default_trust}`,
          ].join("\n"),
      },
    ],
  },

  quarantined: {
    summary: "Shared memories from low-trust sources waiting for review, oldest first",
    input: QuarantineInput,
    output: QuarantineOutput,
    effect: "read",
    agent: { kind: "operator", needs: "the quarantine list" },
    http: [
      {
        method: "get",
        path: "/v1/quarantine",
        tag: "sharing",
        query: ["group", "limit"],
        status: 200,
        returns: "Quarantined memories.",
        errors: [400, 503],
      },
    ],
    mcp: null,
    cli: [
      {
        command: "share pending",
        description: "list quarantined shared memories waiting for review, oldest first",
        options: {
          group: { flag: "--group <group>", help: "only those shared with this group" },
          limit: { flag: "--limit <n>", help: "at most this many (default 100)" },
        },
        human: (result) =>
          result.memories.length === 0
            ? "nothing quarantined"
            : result.memories
                .map(
                  (m) =>
                    `${m.id}  ${m.shared_group}  from ${m.source} (${m.source_trust})${m.agent_id ? ` by ${m.agent_id}` : ""}\n  ${m.key_text} — ${m.value_text}`,
                )
                .join("\n"),
      },
    ],
  },

  review: {
    summary: "Confirm a shared memory for its group, or reject it",
    description:
      "confirm: the group recalls it from now on. reject: nobody recalls it; it is archived " +
      "with its history. Both are recorded in the audit log.",
    input: ReviewInput,
    output: ReviewOutput,
    effect: "destructive",
    agent: { kind: "operator", needs: "reviewing shared memory" },
    http: [
      {
        method: "post",
        path: "/v1/memories/{id}/review",
        tag: "sharing",
        params: { id: "memory_id" },
        status: 200,
        returns: "The review's outcome.",
        errors: [400, 404, 413, 503],
      },
    ],
    mcp: null,
    cli: [reviewCommand("confirm"), reviewCommand("reject")],
  },

  access: {
    summary: "What an agent may do with each memory: own, visible or hidden",
    // Called with (agent, ids) by the agent-key layer itself, in process or over the RPC.
    input: null,
    output: null,
    effect: "read",
    agent: { kind: "operator", needs: "checking another agent's access" },
    http: null,
    mcp: null,
    cli: null,
  },
});
