/**
 * The memory an agent-bound API key reaches (`key:tenant/agent`): every request acts as that
 * agent. What it stores carries its agent_id, and a shared write is trusted no more than the
 * agent itself; what it recalls is what that agent may see (its own memories and its groups'
 * confirmed knowledge); by id it reads only what it may see and forgets, rates or restores
 * only what it wrote. Naming another agent is refused. The operator's operations — grants,
 * trust, reviews, the quarantine list, the audit log, maintenance — need a key bound to no
 * agent, so an agent can neither promote its own writes out of quarantine nor rate its own
 * sources.
 */
import { z } from "zod";
import { ErrorCode, HindsightError, notFound } from "../core/errors.js";
import type { MemoryApi, MemoryOperation } from "../core/memory-api.js";
import { nameUuid } from "../core/name-uuid.js";
import { SummarizeInput, UpdateInput } from "../core/schemas.js";
import { permissionDenied } from "../core/sharing/sharing.js";
import { validate } from "../core/validate.js";
import { invoke, OPERATION_NAMES, type OPERATIONS, operationSpec } from "../operations/index.js";

/**
 * The id a memory an agent names `id` is stored under: a name-based UUID (version 5) of the
 * agent and the id. Memory ids are one space for the whole tenant, so an id the caller chose
 * that another agent's memory already has would be answered as a retried store — telling the
 * caller that the memory exists. In its own space an agent can collide only with itself, and
 * a retry with the same id still lands on the same memory.
 */
export function agentMemoryId(agent: string, id: string): string {
  return nameUuid(`hindsight-agent-id\0${agent}\0${id}`);
}

const UUID = z.uuid();

/** A write's input as the agent's: its agent_id, and a chosen id in the agent's own space. */
function asAgentWrite(input: unknown, agent: string): unknown {
  const scoped = asAgent(input, agent);
  if (scoped === null || typeof scoped !== "object") return scoped;
  const id = (scoped as { id?: unknown }).id;
  // Only a valid id is mapped: an invalid one must reach the schema and be refused as given.
  return typeof id === "string" && UUID.safeParse(id).success
    ? { ...scoped, id: agentMemoryId(agent, id) }
    : scoped;
}

/** The input with agent_id set to the key's agent; another agent named there is refused. */
function asAgent(input: unknown, agent: string): unknown {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return input;
  const given = (input as { agent_id?: unknown }).agent_id;
  if (given !== undefined && given !== agent) {
    throw permissionDenied("agent_id", `this API key acts as agent '${agent}' only`);
  }
  return { ...input, agent_id: agent };
}

function field(input: unknown, name: string): unknown {
  return input !== null && typeof input === "object"
    ? (input as Record<string, unknown>)[name]
    : undefined;
}

/** The operations whose agent rule is `custom`: each needs its own scoping below. */
type CustomOperation = {
  [K in MemoryOperation]: (typeof OPERATIONS)[K]["agent"] extends { kind: "custom" } ? K : never;
}[MemoryOperation];

export function scopeToAgent(memory: MemoryApi, agent: string): MemoryApi {
  const operatorOnly = (needs: string) => async (): Promise<never> => {
    throw new HindsightError(
      ErrorCode.PERMISSION_DENIED,
      `${needs} needs an operator API key; this one is bound to agent '${agent}'`,
    );
  };
  /**
   * Refuses ids the agent may not use before the call: another agent's private memory, or a
   * group's knowledge it does not belong to, is "not found" (its existence is not confirmed);
   * shared knowledge it may read but did not write cannot be changed.
   */
  const checked = async (fieldName: string, ids: string | string[], need: "own" | "visible") => {
    const list = Array.isArray(ids) ? ids : [ids];
    const access = await memory.access(agent, list);
    for (const id of list) {
      const level = access[id];
      if (level === undefined || level === "hidden") throw notFound(fieldName, id);
      if (need === "own" && level !== "own") {
        throw permissionDenied(fieldName, `memory ${id} was written by another agent`);
      }
    }
  };
  /**
   * The input is validated before anything is looked up: a malformed id or an oversized list
   * is INVALID_INPUT naming its field, and never reaches the store (a non-UUID id gave the
   * database's own error; 20,000 ids were all looked up before the limit of 50 was checked).
   */
  const byId =
    (name: MemoryOperation, schema: z.ZodObject, need: "own" | "visible") =>
    async (input: unknown) => {
      const { memory_id: id } = validate(schema, input) as { memory_id: string };
      await checked("memory_id", id, need);
      return invoke(memory, name, input);
    };
  const custom: { [K in CustomOperation]: MemoryApi[K] } = {
    storeEpisodicBatch: (inputs) =>
      memory.storeEpisodicBatch(
        Array.isArray(inputs) ? inputs.map((item) => asAgentWrite(item, agent)) : inputs,
      ),
    // A shared write is trusted no more than the agent itself.
    storeSemantic: (input) => memory.storeSemantic(asAgentWrite(input, agent), { agent }),
    summarize: async (input) => {
      // A recall's scope, or whose working-memory session: the key's agent either way.
      if (field(input, "query_text") !== undefined || field(input, "session_id") !== undefined) {
        return memory.summarize(asAgent(input, agent));
      }
      const { memory_ids: ids } = validate(SummarizeInput, input);
      if (ids) await checked("memory_ids", ids, "visible");
      return memory.summarize(input);
    },
    // Its own memories only, and not shared knowledge: a group's confirmed fact rewritten by
    // an agent would bypass the review its writes go through. Storing the corrected fact does
    // go through it.
    update: async (input) => {
      const { memory_id: id } = validate(UpdateInput, input);
      await checked("memory_id", id, "own");
      const target = await memory.get({ memory_id: id });
      if (target.layer === "semantic" && target.shared_group !== null) {
        throw permissionDenied(
          "memory_id",
          "is shared knowledge, corrected by an operator key; store the corrected fact to have it reviewed",
        );
      }
      return memory.update(input);
    },
    // Its own groups only: which groups exist, and who is in them, is the operator's to see.
    groups: async (input) => {
      const { groups } = await memory.groups(input);
      return { groups: groups.filter((group) => group.members.some((m) => m.agent_id === agent)) };
    },
  };
  const scoped = (name: MemoryOperation): unknown => {
    if (name in custom) return custom[name as CustomOperation];
    const spec = operationSpec(name);
    const rule = spec.agent;
    switch (rule.kind) {
      case "as-agent":
        return (input: unknown) => invoke(memory, name, asAgent(input ?? {}, agent));
      case "as-agent-write":
        return (input: unknown) => invoke(memory, name, asAgentWrite(input, agent));
      case "own":
      case "visible":
        if (!spec.input?.shape.memory_id) {
          throw new Error(`operation ${name}: an '${rule.kind}' rule needs a memory_id input`);
        }
        return byId(name, spec.input, rule.kind);
      case "operator":
        return operatorOnly(rule.needs);
      case "open":
        return (...args: unknown[]) =>
          (memory[name] as (...params: unknown[]) => Promise<unknown>).apply(memory, args);
      case "custom":
        throw new Error(`operation ${name} is declared custom but has no scoping`);
    }
  };
  return {
    ...Object.fromEntries(OPERATION_NAMES.map((name) => [name, scoped(name)])),
    // The tenant's memory outlives any one key.
    close: async () => {},
  } as unknown as MemoryApi;
}
