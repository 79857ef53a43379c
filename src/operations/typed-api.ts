/**
 * The library's view of MemoryApi: every operation takes the input type of the zod schema that
 * validates it (the operation registry), so `storeEpisodic({ outcome: "maybe" })` or
 * `recall({ query_text: 42 })` does not compile. The surfaces (REST, MCP, CLI, the RPC between
 * processes) keep MemoryApi, whose inputs are `unknown`: they pass what they received, and the
 * service validates it — once — as it validates a library call. Dates may be given as `Date`
 * where the service accepts them.
 */
import type { z } from "zod";
import type { MemoryApi } from "../core/memory-api.js";
import type { OPERATION_INPUTS, OperationWithInput } from "./index.js";

/** `T` with the fields `K` also accepting a `Date` (turned into ISO 8601 before validation). */
type Dated<T, K extends keyof T> = Omit<T, K> & { [P in K]?: T[P] | Date };

/** The fields the service turns from `Date` into ISO 8601 before validating. */
interface DateFields {
  storeEpisodic: "occurred_at";
  storeSemantic: "valid_from";
  audit: "since" | "until";
}

type SchemaInput<K extends OperationWithInput> = z.input<(typeof OPERATION_INPUTS)[K]>;
type Accepted<K extends OperationWithInput> = K extends keyof DateFields
  ? Dated<SchemaInput<K>, DateFields[K] & keyof SchemaInput<K>>
  : SchemaInput<K>;

export type EpisodeInput = Accepted<"storeEpisodic">;
export type KnowledgeInput = Accepted<"storeSemantic">;

/** The operation with its first argument (optional where it is) typed by its schema. */
type Typed<K extends keyof MemoryApi> = K extends OperationWithInput
  ? MemoryApi[K] extends (...args: infer P) => infer R
    ? (...args: { [I in keyof P]: I extends "0" ? Accepted<K> : P[I] }) => R
    : never
  : MemoryApi[K];

export type TypedMemoryApi = {
  [K in Exclude<keyof MemoryApi, "storeEpisodicBatch">]: Typed<K>;
} & {
  /** Many episodes in one transaction: one bad item writes nothing. */
  storeEpisodicBatch(inputs: readonly EpisodeInput[]): ReturnType<MemoryApi["storeEpisodicBatch"]>;
};

// An operation whose input is validated must have its schema listed: otherwise the library
// would type its input as `unknown` without anyone noticing.
type TakesInput = {
  [K in keyof MemoryApi]: Parameters<MemoryApi[K]> extends []
    ? never
    : unknown extends Parameters<MemoryApi[K]>[0]
      ? K
      : never;
}[keyof MemoryApi];
type Unlisted = Exclude<TakesInput, OperationWithInput | "storeEpisodicBatch">;
const everyInputListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyInputListed;
// The service (a MemoryApi) is a TypedMemoryApi.
const serviceIsTyped = (memory: MemoryApi): TypedMemoryApi => memory;
void serviceIsTyped;
