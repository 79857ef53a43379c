/**
 * Reading other memory systems' files into hindsight's export records, so their users can
 * switch: the MCP reference memory server's `memory.json` (a knowledge graph as JSON Lines:
 * entities with observations, and relations) and a mem0 export (`get_all` output: an array,
 * `{"results": [...]}`, or one memory per line). Each becomes semantic memory — a fact with its
 * provenance in `source` and tags — under an id derived from its content (or mem0's own id),
 * so importing the same file twice changes nothing.
 */
import { z } from "zod";
import { invalidInput } from "../errors.js";
import { nameUuid } from "../name-uuid.js";
import { searchText } from "../recall/search-text.js";
import { LIMITS } from "../schemas.js";
import type { JsonObject } from "../types.js";
import { validate } from "../validate.js";
import type { ExportedSemantic } from "./format.js";

export const FOREIGN_FORMATS = ["mcp-memory", "mem0"] as const;
export type ForeignFormat = (typeof FOREIGN_FORMATS)[number];

/** The id of imported content: the same content, the same id (see name-uuid). */
function contentId(...parts: string[]): string {
  return nameUuid(`hindsight-import\0${parts.join("\0")}`);
}

const clip = (text: string, max: number) => (text.length <= max ? text : text.slice(0, max));

interface Fact {
  id: string;
  key_text: string;
  value_text: string;
  tags: string[];
  source: string;
  metadata?: JsonObject;
  at: string;
  user_id?: string | null;
  agent_id?: string | null;
  session_id?: string | null;
}

function semanticRecord(fact: Fact): ExportedSemantic {
  const key = clip(fact.key_text, LIMITS.keyChars);
  const value = clip(fact.value_text, LIMITS.valueChars);
  const tags = [...new Set(fact.tags.map((tag) => clip(tag, LIMITS.tagChars)))].slice(
    0,
    LIMITS.tags,
  );
  return {
    kind: "memory",
    layer: "semantic",
    id: fact.id,
    key_text: key,
    value_text: value,
    task_type: null,
    created_at: fact.at,
    updated_at: fact.at,
    last_used_at: null,
    valid_from: fact.at,
    valid_to: null,
    superseded_by: null,
    supersedes: [],
    sources: [],
    shared_group: null,
    source_trust: null,
    review_status: null,
    reviewed_by: null,
    reviewed_at: null,
    metadata: fact.metadata ?? {},
    tags,
    source: fact.source,
    subject: null,
    user_id: fact.user_id ?? null,
    agent_id: fact.agent_id ?? null,
    session_id: fact.session_id ?? null,
    confidence: 1,
    access_count: 0,
    decay_score: 1,
    status: "active",
    search_text: searchText([key, value, ...tags]),
    history: [
      { event: "created", at: fact.at, reason: `imported from ${fact.source}`, details: {} },
    ],
    scored_at: null,
    decay_archived_at: null,
  };
}

const McpEntity = z.object({
  type: z.literal("entity"),
  name: z.string().min(1),
  entityType: z.string().min(1),
  observations: z.array(z.string()),
});
const McpRelation = z.object({
  type: z.literal("relation"),
  from: z.string().min(1),
  to: z.string().min(1),
  relationType: z.string().min(1),
});

/** One line of the MCP memory server's memory.json: an entity's observations, or a relation. */
function fromMcpMemory(value: unknown, at: string): ExportedSemantic[] {
  const type = (value as { type?: unknown } | null)?.type;
  if (type === "entity") {
    const entity = validate(McpEntity, value);
    return entity.observations.map((observation) =>
      semanticRecord({
        id: contentId("mcp-memory", entity.name, observation),
        key_text: `${entity.name} (${entity.entityType})`,
        value_text: observation,
        tags: ["mcp-memory", entity.entityType],
        source: "mcp-memory",
        metadata: { entity: entity.name, entity_type: entity.entityType },
        at,
      }),
    );
  }
  if (type === "relation") {
    const relation = validate(McpRelation, value);
    const text = `${relation.from} ${relation.relationType} ${relation.to}`;
    return [
      semanticRecord({
        id: contentId("mcp-memory", relation.from, relation.relationType, relation.to),
        key_text: text,
        value_text: text,
        tags: ["mcp-memory", "relation"],
        source: "mcp-memory",
        metadata: { from: relation.from, relation: relation.relationType, to: relation.to },
        at,
      }),
    ];
  }
  throw invalidInput("type", "must be entity or relation (an MCP memory server line)");
}

const Mem0Memory = z.object({
  id: z.string().min(1),
  memory: z.string().min(1),
  hash: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  categories: z.array(z.string()).nullable().optional(),
  created_at: z.string().nullable().optional(),
  updated_at: z.string().nullable().optional(),
  user_id: z.string().nullable().optional(),
  agent_id: z.string().nullable().optional(),
  run_id: z.string().nullable().optional(),
});

const UUID = z.uuid();

function isoOr(value: string | null | undefined, fallback: string): string {
  if (!value) return fallback;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? fallback : time.toISOString();
}

/** One mem0 memory: a fact under mem0's id (or one derived from it), with its scope. */
function fromMem0(value: unknown, at: string): ExportedSemantic[] {
  const memory = validate(Mem0Memory, value);
  return [
    semanticRecord({
      id: UUID.safeParse(memory.id).success ? memory.id : contentId("mem0", memory.id),
      key_text: memory.memory,
      value_text: memory.memory,
      tags: ["mem0", ...(memory.categories ?? [])],
      source: "mem0",
      metadata: {
        ...((memory.metadata ?? {}) as JsonObject),
        mem0: { id: memory.id, ...(memory.hash ? { hash: memory.hash } : {}) },
      },
      at: isoOr(memory.created_at, at),
      user_id: memory.user_id ?? null,
      agent_id: memory.agent_id ?? null,
      session_id: memory.run_id ?? null,
    }),
  ];
}

/**
 * The items of a foreign file: JSON Lines (one item per line), or one JSON document holding
 * an array or `{"results": [...]}` (mem0's get_all). Each item keeps its line number.
 */
export function foreignItems(content: string): { line: number; value: unknown }[] {
  const trimmed = content.trim();
  if (trimmed.startsWith("[") || (trimmed.startsWith("{") && trimmed.includes('"results"'))) {
    try {
      const document = JSON.parse(trimmed) as unknown;
      const items = Array.isArray(document)
        ? document
        : (document as { results?: unknown }).results;
      if (Array.isArray(items)) return items.map((value, index) => ({ line: index + 1, value }));
    } catch {
      // Not one document: read it as JSON Lines below.
    }
  }
  return content.split("\n").flatMap((text, index) => {
    if (text.trim() === "") return [];
    try {
      return [{ line: index + 1, value: JSON.parse(text) as unknown }];
    } catch {
      throw invalidInput(`line ${index + 1}`, "is not JSON");
    }
  });
}

/** The export records of one foreign item; an error names what is wrong with it. */
export function fromForeign(format: ForeignFormat, value: unknown, at: Date): ExportedSemantic[] {
  const when = at.toISOString();
  return format === "mcp-memory" ? fromMcpMemory(value, when) : fromMem0(value, when);
}
