/** The memory lifecycle: decay, consolidation, feedback, restore, history and the audit log. */
import {
  AuditOutput,
  ConsolidateOutput,
  FeedbackOutput,
  HistoryOutput,
  MaintainOutput,
  RestoreOutput,
} from "../core/outputs.js";
import {
  AuditInput,
  ConsolidateInput,
  FeedbackInput,
  MaintainInput,
  MemoryIdInput,
} from "../core/schemas.js";
import { defineOperations } from "./spec.js";

const memoryIdArg = [{ field: "memory_id", syntax: "<id>", help: "memory id" }] as const;
const simulatedNow = {
  flag: "--now <iso>",
  help: "run as if it were this moment, to simulate time",
};
const dryRun = { flag: "--dry-run", help: "report what would change; change nothing", value: true };

/** "would archive" on a dry run, "archived" on a run. */
const verb = (dry: boolean | undefined, done: string, would: string) =>
  dry ? `would ${would}` : done;

export const lifecycleOperations = defineOperations({
  maintain: {
    summary: "Apply decay: archive memories that faded, reactivate those recalled again",
    description:
      "decay_score = confidence · exp(−λ · days since last access) + α · ln(1 + access_count). " +
      "Below the threshold a memory moves to cold storage (archived, never deleted). `now` " +
      "simulates another moment; `{}` runs it now.",
    input: MaintainInput,
    output: MaintainOutput,
    effect: "write",
    wholeStore: true,
    agent: { kind: "operator", needs: "maintenance" },
    http: [
      {
        method: "post",
        path: "/v1/maintain",
        tag: "lifecycle",
        status: 200,
        returns: "What changed.",
        errors: [400, 413, 503],
      },
    ],
    // An agent has no business running the tenant's maintenance.
    mcp: null,
    cli: [
      {
        command: "maintain",
        description:
          "apply decay: archive memories that faded (cold storage, never deleted), reactivate those recalled again",
        options: { now: simulatedNow, dry_run: dryRun },
        human: (result) => {
          const dry = result.dry_run;
          const archived = verb(dry, "archived", "archive");
          const reactivated = verb(dry, "reactivated", "reactivate");
          const lines = [
            ...(dry ? ["dry run: nothing was changed"] : []),
            `scored ${result.scored}  ${archived} ${result.archived}  ${reactivated} ${result.reactivated}  confidence ${verb(dry, "lowered", "lower")} ${result.confidence_lowered}`,
          ];
          for (const layer of ["episodic", "semantic"] as const) {
            const counts = result[layer];
            lines.push(
              `${layer.padEnd(8)}  scored ${counts.scored}  ${archived} ${counts.archived}  ${reactivated} ${counts.reactivated}`,
            );
            if ("archived_ids" in counts) {
              for (const id of counts.archived_ids) lines.push(`  would archive ${id}`);
              for (const id of counts.reactivated_ids) lines.push(`  would reactivate ${id}`);
            }
          }
          return lines.join("\n");
        },
      },
    ],
  },

  consolidate: {
    summary: "Draw semantic patterns from task types with enough new episodes",
    description:
      "With a language model it extracts 1–3 rule/advice patterns per task type; without one, " +
      "a statistical summary (outcome rates, recurring terms). Patterns cite their episodes and " +
      "are deduplicated against existing knowledge. `{}` considers every task type.",
    input: ConsolidateInput,
    output: ConsolidateOutput,
    effect: "write",
    wholeStore: true,
    embeds: true,
    agent: { kind: "operator", needs: "consolidation" },
    http: [
      {
        method: "post",
        path: "/v1/consolidate",
        tag: "lifecycle",
        status: 200,
        returns: "What was created.",
        errors: [400, 413, 503],
      },
    ],
    mcp: null,
    cli: [
      {
        command: "consolidate",
        description:
          "draw rules and advice (semantic memory) from task types with enough new episodes",
        options: {
          task_type: { flag: "--task-type <type>", help: "only this task type" },
          now: simulatedNow,
          dry_run: dryRun,
        },
        human: (result) => {
          if (result.groups.length === 0) return "nothing to consolidate";
          const dry = result.dry_run;
          const lines = [
            ...(dry ? ["dry run: nothing was changed"] : []),
            ...result.groups.map((g) => `${g.task_type}: ${g.episodes} episodes (${g.method})`),
          ];
          for (const [label, list] of [
            [verb(dry, "created", "create"), result.created],
            [verb(dry, "updated", "update"), result.updated],
          ] as const) {
            for (const m of list) {
              lines.push(
                `${label} ${m.id}  from ${m.sources.length} episodes\n    ${m.key}\n    → ${m.value}`,
              );
            }
          }
          if (result.superseded.length > 0)
            lines.push(`${verb(dry, "superseded", "supersede")} ${result.superseded.join(", ")}`);
          return lines.join("\n");
        },
      },
    ],
  },

  feedback: {
    summary: "Report whether a recalled memory was useful: its confidence rises or falls",
    input: FeedbackInput,
    output: FeedbackOutput,
    effect: "write",
    agent: { kind: "own" },
    http: [
      {
        method: "post",
        path: "/v1/feedback",
        tag: "lifecycle",
        status: 200,
        returns: "The new confidence.",
        errors: [400, 404, 413, 503],
      },
    ],
    mcp: {
      name: "memory_feedback",
      title: "Rate a recalled memory",
      description:
        "Tell memory whether a memory you recalled was useful. Call it after using a recalled rule " +
        "or fact: useful true when it helped (its confidence rises), false when it was wrong, " +
        "outdated or irrelevant (its confidence falls; very low confidence moves it to cold " +
        "storage). Add a short reason when you know it. 反馈召回的记忆是否有用：有用提高置信度，无用降低。",
      // Each call moves confidence again.
      idempotent: false,
      text: (result) =>
        `Memory ${result.id} (${result.layer}): confidence ${result.previous_confidence.toFixed(2)} → ` +
        `${result.confidence.toFixed(2)}${result.status === "archived" ? ", archived" : ""}.`,
    },
    cli: [
      {
        command: "feedback",
        description: "report whether a recalled memory was useful: its confidence rises or falls",
        args: memoryIdArg,
        options: {
          useful: [
            { flag: "--useful", help: "it helped", value: true },
            { flag: "--not-useful", help: "it was wrong or did not help", value: false },
          ],
          reason: { flag: "--reason <text>", help: "why, kept in the memory's history" },
        },
        human: (result) =>
          `${result.layer} memory ${result.id}: confidence ${result.previous_confidence.toFixed(2)} → ${result.confidence.toFixed(2)}, ${result.status}`,
      },
    ],
  },

  restore: {
    summary: "Bring an archived memory back from cold storage",
    input: MemoryIdInput,
    output: RestoreOutput,
    effect: "write",
    agent: { kind: "own" },
    http: [
      {
        method: "post",
        path: "/v1/memories/{id}/restore",
        tag: "lifecycle",
        params: { id: "memory_id" },
        body: false,
        status: 200,
        returns: "Active again.",
        errors: [400, 404, 503],
      },
    ],
    mcp: null,
    cli: [
      {
        command: "restore",
        description:
          "bring an archived memory back from cold storage (undoes soft forgetting and decay)",
        args: memoryIdArg,
        human: (result) =>
          `${result.layer} memory ${result.id}: ${result.previous_status} → active`,
      },
    ],
  },

  history: {
    summary: "What happened to a memory, when and why",
    description:
      "Creation, merges, superseding, archiving, reactivation, restore, feedback and " +
      "consolidation, oldest first, with the episodes a semantic memory was drawn from.",
    input: MemoryIdInput,
    output: HistoryOutput,
    effect: "read",
    agent: { kind: "visible" },
    http: [
      {
        method: "get",
        path: "/v1/memories/{id}/history",
        tag: "lifecycle",
        params: { id: "memory_id" },
        status: 200,
        returns: "The memory's history.",
        errors: [400, 404, 503],
      },
    ],
    mcp: {
      name: "memory_history",
      title: "History of a memory",
      description:
        "Show what happened to one memory, when and why: created, merged with a near-duplicate, " +
        "superseded by a newer fact, archived by decay, reactivated, restored, rated. Call it when " +
        "the user asks why you believe something, where a rule came from (the episodes it was drawn " +
        "from), or why an old fact no longer applies. 查看一条记忆的变更历史及来源。",
      idempotent: true,
      text: (history) => {
        const lines = history.events.map((e) => `${e.at.toISOString()} ${e.event}: ${e.reason}`);
        if (history.sources.length > 0)
          lines.push(`Drawn from episodes ${history.sources.join(", ")}.`);
        if (history.superseded_by) lines.push(`Superseded by ${history.superseded_by}.`);
        return `Memory ${history.id} (${history.layer}, ${history.status}):\n${lines.join("\n")}`;
      },
    },
    cli: [
      {
        command: "history",
        description: "show what happened to a memory, when and why",
        args: memoryIdArg,
        human: (result) => {
          const lines = [`${result.layer} memory ${result.id} (${result.status})`];
          for (const e of result.events) {
            lines.push(`${e.at.toISOString()}  ${e.event.padEnd(12)} ${e.reason}`);
          }
          if (result.sources.length > 0) lines.push(`drawn from ${result.sources.join(", ")}`);
          if (result.consolidated_into.length > 0)
            lines.push(`consolidated into ${result.consolidated_into.join(", ")}`);
          if (result.superseded_by) lines.push(`superseded by ${result.superseded_by}`);
          if (result.supersedes.length > 0)
            lines.push(`supersedes ${result.supersedes.join(", ")}`);
          return lines.join("\n");
        },
      },
    ],
  },

  audit: {
    summary: "The audit log: forgets, deletes, merges, supersedes and restores, newest first",
    description:
      "Entries hold ids, times, reasons and structural details, never memory content, so a " +
      "hard-deleted memory leaves only the record that it was deleted.",
    input: AuditInput,
    output: AuditOutput,
    effect: "read",
    agent: { kind: "operator", needs: "the audit log" },
    http: [
      {
        method: "get",
        path: "/v1/audit",
        tag: "lifecycle",
        query: ["since", "until", "operation", "memory_id", "target", "limit"],
        status: 200,
        returns: "Audit entries.",
        errors: [400, 503],
      },
    ],
    mcp: null,
    cli: [
      {
        command: "audit",
        description:
          "show the audit log: forgets, deletes, merges, supersedes, restores, and shared memory's reviews, grants and trust changes",
        options: {
          since: { flag: "--since <iso>", help: "entries at or after this time" },
          until: { flag: "--until <iso>", help: "entries before this time" },
          operation: {
            flag: "--operation <op>",
            help: "forget | delete | merge | supersede | restore | update | confirm | reject | grant | revoke | trust",
          },
          memory_id: { flag: "--memory <id>", help: "entries about this memory only" },
          target: { flag: "--target <name>", help: "entries about this group or source only" },
          limit: { flag: "--limit <n>", help: "at most this many, newest first (default 100)" },
        },
        human: (result) =>
          result.entries.length === 0
            ? "no audit entries"
            : result.entries
                .map(
                  (e) =>
                    `${e.at.toISOString()}  ${e.operation.padEnd(9)} ${(e.layer ?? "").padEnd(8)} ${e.memory_id ?? e.target}  ${e.reason}`,
                )
                .join("\n"),
      },
    ],
  },
});
