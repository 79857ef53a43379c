/**
 * The conditions recall's candidates and listings share: task type, scope, tags and the
 * memory's time, for a memory table aliased `m`. Who may see a memory (the agent, shared
 * knowledge) is each caller's own.
 */
import type { ScopeFilter } from "../../core/filters.js";
import type { MemoryLayer } from "../../core/types.js";

/** The time a period filters on, and listings order by: when it happened or became valid. */
export const MEMORY_TIME: Record<MemoryLayer, string> = {
  episodic: "m.occurred_at",
  semantic: "m.valid_from",
};

export interface SharedFilter extends Omit<ScopeFilter, "agent_id"> {
  task_type?: string;
  from?: Date;
  to?: Date;
}

export function filterConditions(
  layer: MemoryLayer,
  filter: SharedFilter,
  bind: (value: unknown) => string,
): string[] {
  const conditions: string[] = [];
  for (const column of ["task_type", "user_id", "session_id"] as const) {
    const value = filter[column];
    if (value !== undefined) conditions.push(`m.${column} = ${bind(value)}`);
  }
  if (filter.tags !== undefined) {
    // && overlaps (any), @> contains (all); both use the tags' GIN index (migration 8).
    const operator = filter.tags.match === "all" ? "@>" : "&&";
    conditions.push(`m.tags ${operator} ${bind(filter.tags.values)}::text[]`);
  }
  if (filter.from !== undefined) conditions.push(`${MEMORY_TIME[layer]} >= ${bind(filter.from)}`);
  if (filter.to !== undefined) conditions.push(`${MEMORY_TIME[layer]} <= ${bind(filter.to)}`);
  return conditions;
}
