/**
 * The memory an agent-bound API key reaches (`key:tenant/agent`): every request acts as that
 * agent. What it stores carries its agent_id and what it recalls is what that agent may see
 * (its own memories and its groups' confirmed knowledge); naming another agent is refused.
 * The operator's operations — grants, trust, reviews, the quarantine list, the audit log,
 * maintenance — need a key bound to no agent, so an agent can neither promote its own writes
 * out of quarantine nor rate its own sources.
 */
import { ErrorCode, HindsightError } from "../core/errors.js";
import type { MemoryApi } from "../core/memory-api.js";

function denied(field: string, message: string): HindsightError {
  return new HindsightError(ErrorCode.PERMISSION_DENIED, `${field}: ${message}`, { field });
}

/** The input with agent_id set to the key's agent; another agent named there is refused. */
function asAgent(input: unknown, agent: string): unknown {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return input;
  const given = (input as { agent_id?: unknown }).agent_id;
  if (given !== undefined && given !== agent) {
    throw denied("agent_id", `this API key acts as agent '${agent}' only`);
  }
  return { ...input, agent_id: agent };
}

export function scopeToAgent(memory: MemoryApi, agent: string): MemoryApi {
  const operatorOnly = (operation: string) => async (): Promise<never> => {
    throw new HindsightError(
      ErrorCode.PERMISSION_DENIED,
      `${operation} needs an operator API key; this one is bound to agent '${agent}'`,
    );
  };
  return {
    storeEpisodic: (input) => memory.storeEpisodic(asAgent(input, agent)),
    storeEpisodicBatch: (inputs) =>
      memory.storeEpisodicBatch(
        Array.isArray(inputs) ? inputs.map((i) => asAgent(i, agent)) : inputs,
      ),
    storeSemantic: (input) => memory.storeSemantic(asAgent(input, agent)),
    recall: (input) => memory.recall(asAgent(input, agent)),
    summarize: (input) => {
      const request = input as { query_text?: unknown } | null;
      // Only a summary of recalled memories is scoped; ids and sessions name their memories.
      return memory.summarize(
        request && typeof request === "object" && request.query_text !== undefined
          ? asAgent(input, agent)
          : input,
      );
    },
    workingEnd: (input) => memory.workingEnd(asAgent(input, agent)),
    workingAppend: (input) => memory.workingAppend(input),
    workingGet: (input) => memory.workingGet(input),
    workingCompress: (input) => memory.workingCompress(input),
    forget: (input) => memory.forget(input),
    feedback: (input) => memory.feedback(input),
    restore: (input) => memory.restore(input),
    history: (input) => memory.history(input),
    groups: (input) => memory.groups(input),
    sources: () => memory.sources(),
    stats: () => memory.stats(),
    ping: () => memory.ping(),
    migrate: () => memory.migrate(),
    audit: operatorOnly("the audit log"),
    maintain: operatorOnly("maintenance"),
    consolidate: operatorOnly("consolidation"),
    grant: operatorOnly("granting group membership"),
    revoke: operatorOnly("revoking group membership"),
    setTrust: operatorOnly("setting a source's trust"),
    quarantined: operatorOnly("the quarantine list"),
    review: operatorOnly("reviewing shared memory"),
    // The tenant's memory outlives any one key.
    close: async () => {},
  };
}
