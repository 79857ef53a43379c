/** Managing what is stored: one memory by id, listings by filter, corrections. */
import type { MemoryWithProvenance } from "../core/memories/browse.js";
import type { StoredMemory } from "../core/memories/ports.js";
import {
  ExportOutput,
  GetOutput,
  ImportOutput,
  ListOutput,
  UpdateOutput,
} from "../core/outputs.js";
import { ListInput, MemoryIdInput, UpdateInput } from "../core/schemas.js";
import { ExportInput, ImportInput } from "../core/transfer/transfer.js";
import { scopeFilterFlags, tagFilterFlags } from "./flags.js";
import { renderMemories } from "./render.js";
import { defineOperations } from "./spec.js";

/** One line per memory for a person: when, layer, status, id and what it says. */
function memoryLine(memory: StoredMemory): string {
  const at = memory.layer === "episodic" ? memory.occurred_at : memory.valid_from;
  const text =
    memory.layer === "episodic"
      ? `[${memory.task_type}/${memory.outcome}] ${memory.summary}`
      : `${memory.key_text}: ${memory.value_text}`;
  const tags = memory.tags.length > 0 ? `  #${memory.tags.join(" #")}` : "";
  return `${at.toISOString()}  ${memory.layer.padEnd(8)} ${memory.status.padEnd(8)} ${memory.id}  ${text}${tags}`;
}

function provenanceLines({ provenance }: MemoryWithProvenance): string[] {
  const lines: string[] = [];
  if (provenance.sources.length > 0) lines.push(`drawn from ${provenance.sources.join(", ")}`);
  if (provenance.consolidated_into.length > 0)
    lines.push(`consolidated into ${provenance.consolidated_into.join(", ")}`);
  if (provenance.supersedes.length > 0)
    lines.push(`supersedes ${provenance.supersedes.join(", ")}`);
  if (provenance.superseded_by) lines.push(`superseded by ${provenance.superseded_by}`);
  return lines;
}

export const manageOperations = defineOperations({
  get: {
    summary: "One memory of either layer, with its provenance",
    description:
      "The full memory as stored, and where it came from: the episodes knowledge was drawn " +
      "from, the knowledge drawn from an episode, and the facts it replaced or was replaced " +
      "by. Reading it is not an access: it changes neither ranking nor decay.",
    input: MemoryIdInput,
    output: GetOutput,
    effect: "read",
    agent: { kind: "visible" },
    http: [
      {
        method: "get",
        path: "/v1/memories/{id}",
        tag: "memories",
        params: { id: "memory_id" },
        status: 200,
        returns: "The memory.",
        errors: [400, 404, 503],
      },
    ],
    mcp: {
      name: "memory_get",
      title: "Get a memory",
      description:
        "Read one memory by id, in full, with where it came from (the episodes a rule was drawn " +
        "from, the newer fact that replaced it). Call it when a recalled or listed memory's id " +
        "needs a closer look. 按 id 读取一条完整记忆及其来源。",
      idempotent: true,
      text: (memory) => [renderMemories([memory], ""), ...provenanceLines(memory)].join("\n"),
    },
    cli: [
      {
        command: "get",
        description: "show one memory of either layer, with its provenance",
        args: [{ field: "memory_id", syntax: "<id>", help: "memory id" }],
        human: (memory) =>
          [
            memoryLine(memory),
            ...(memory.layer === "episodic"
              ? []
              : [
                  `confidence ${memory.confidence}${memory.task_type ? `, task type ${memory.task_type}` : ""}`,
                ]),
            ...(Object.keys(memory.metadata).length > 0
              ? [`metadata ${JSON.stringify(memory.metadata)}`]
              : []),
            ...provenanceLines(memory),
          ].join("\n"),
      },
    ],
  },

  list: {
    summary: "List stored memories by filter, newest first, a page at a time",
    description:
      "Current memories by default (status); filters by layer, task type, tags, user, agent, " +
      "session and time. The order is stable: follow next_cursor for the next page; total " +
      "counts the matches on all pages. Listing is not an access.",
    input: ListInput,
    output: ListOutput,
    effect: "read",
    agent: { kind: "as-agent" },
    http: [
      {
        method: "get",
        path: "/v1/memories",
        tag: "memories",
        query: [
          "memory_layer",
          "task_type",
          "tags",
          "tags_match",
          "status",
          "user_id",
          "agent_id",
          "session_id",
          "time_range",
          "limit",
          "cursor",
        ],
        status: 200,
        returns: "A page of memories.",
        errors: [400, 503],
      },
    ],
    mcp: {
      name: "memory_list",
      title: "List memories",
      description:
        "Browse your stored memories, newest first, by layer, task type, tags, status and time. " +
        "Call it when the user asks what you remember (about a task type, a tag, a period), not " +
        "to answer a question — memory_recall searches. Pass next_cursor back as cursor for the " +
        "next page. 按条件浏览已存储的记忆。",
      idempotent: true,
      text: (list) =>
        [
          renderMemories(list.memories, "No memories match."),
          `${list.memories.length} of ${list.total}${list.next_cursor ? `; next page: cursor ${list.next_cursor}` : ""}`,
        ].join("\n\n"),
    },
    cli: [
      {
        command: "list",
        alias: "ls",
        description: "list stored memories by filter, newest first",
        options: {
          memory_layer: {
            flag: "--layer <layer>",
            help: "episodic | semantic | all (default all)",
          },
          task_type: { flag: "--task-type <type>", help: "only memories of this task type" },
          ...tagFilterFlags,
          status: {
            flag: "--status <status>",
            help: "active (default) | archived | quarantined | rejected | superseded | all",
          },
          ...scopeFilterFlags,
          time_range: {
            flag: "--time-range <from~to>",
            help: "when it happened (episodic) or became valid (semantic), e.g. 2024-01-01~2024-01-31",
          },
          limit: { flag: "--limit <n>", help: "memories per page, 1..100 (default 20)" },
          cursor: { flag: "--cursor <token>", help: "the next page, as the last one printed it" },
        },
        human: (list) =>
          [
            ...(list.memories.length === 0 ? ["no memories match"] : list.memories.map(memoryLine)),
            `${list.memories.length} of ${list.total}${list.next_cursor ? `; next page: --cursor ${list.next_cursor}` : ""}`,
          ].join("\n"),
      },
    ],
  },

  update: {
    summary: "Correct a memory: its text, task type, outcome, tags, metadata or confidence",
    description:
      "The fields given replace the stored ones (tags and metadata as a whole); a changed text " +
      "is embedded and indexed again. What the fields said before stays in the memory's " +
      "history, and the audit log records the correction. It neither merges nor supersedes: " +
      "to record a new fact that replaces an old one, store it.",
    input: UpdateInput,
    output: UpdateOutput,
    effect: "write",
    embeds: true,
    agent: { kind: "custom" },
    http: [
      {
        method: "patch",
        path: "/v1/memories/{id}",
        tag: "memories",
        params: { id: "memory_id" },
        status: 200,
        returns: "The memory as corrected, and the fields that changed.",
        errors: [400, 404, 413, 503],
      },
    ],
    mcp: {
      name: "memory_update",
      title: "Correct a memory",
      description:
        "Correct one of your memories that turned out wrong or incomplete: its summary, or a " +
        "fact's key_text / value_text, task type, outcome, tags, metadata or confidence. Only " +
        "the fields you give change; the old values stay in its history. Call it when the user " +
        "corrects something you remembered. 更正一条记忆的内容、标签或置信度。",
      idempotent: true,
      text: (memory) =>
        memory.changed.length === 0
          ? `Memory ${memory.id} already said that; nothing changed.`
          : `Memory ${memory.id} corrected: ${memory.changed.join(", ")}.`,
    },
    cli: [
      {
        command: "update",
        description: "correct a memory: its text, task type, outcome, tags, metadata or confidence",
        args: [{ field: "memory_id", syntax: "<id>", help: "memory id" }],
        options: {
          summary: { flag: "--summary <text>", help: "episodic: the corrected summary" },
          key_text: { flag: "--key <text>", help: "semantic: the corrected rule or fact" },
          value_text: { flag: "--value <text>", help: "semantic: the corrected detail" },
          task_type: { flag: "--task-type <type>", help: "the corrected task type" },
          outcome: { flag: "--outcome <outcome>", help: "episodic: success | failure | partial" },
          tags: { flag: "--tags <a,b>", help: "the tags from now on (replacing the old ones)" },
          metadata: { flag: "--metadata <json>", help: "the metadata from now on (a JSON object)" },
          confidence: { flag: "--confidence <0..1>", help: "the confidence from now on" },
          reason: { flag: "--reason <text>", help: "why; kept in its history and the audit log" },
        },
        human: (memory) =>
          memory.changed.length === 0
            ? `nothing changed: ${memory.id} already says that`
            : `${memoryLine(memory)}\ncorrected ${memory.changed.join(", ")}`,
      },
    ],
  },

  // Moving a store: the CLI's `export` and `import` (cli/commands/transfer) stream files
  // through these, a page or a batch at a time.
  exportMemories: {
    summary: "Export the store, a page at a time, in hindsight's JSON Lines format",
    description:
      "Every memory of both layers with its status, history, provenance links, access " +
      "statistics and decay state (and its vector with with_vectors); the first page also " +
      "carries the groups and source trust. Write the header, then each page's records, one " +
      "JSON object per line: that is the export file `hindsight import` reads.",
    input: ExportInput,
    output: ExportOutput,
    effect: "read",
    agent: { kind: "operator", needs: "exporting the store" },
    http: [
      {
        method: "get",
        path: "/v1/export",
        tag: "memories",
        query: ["cursor", "limit", "with_vectors"],
        status: 200,
        returns: "A page of the export.",
        errors: [400, 503],
      },
    ],
    mcp: null,
    cli: null,
  },

  importMemories: {
    summary: "Import records of an export into this store; what it holds already is kept",
    description:
      "Records are checked one by one before anything is written, and a batch is written in " +
      "one transaction. Memories keep their ids, so importing a file twice changes nothing " +
      "the second time; vectors made by another embedder, or left out, are computed again.",
    input: ImportInput,
    output: ImportOutput,
    effect: "write",
    embeds: true,
    agent: { kind: "operator", needs: "importing into the store" },
    http: [
      {
        method: "post",
        path: "/v1/import",
        tag: "memories",
        status: 200,
        returns: "What was imported and skipped.",
        errors: [400, 413, 503],
      },
    ],
    mcp: null,
    cli: null,
  },
});
