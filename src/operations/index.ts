/**
 * Every operation of hindsight, declared once (see spec.ts); the surfaces are derived from this
 * registry. An operation of MemoryApi missing here, or one here that MemoryApi lacks, does not
 * compile.
 */
import type { z } from "zod";
import type { MemoryApi, MemoryOperation } from "../core/memory-api.js";
import { lifecycleOperations } from "./lifecycle.js";
import { manageOperations } from "./manage.js";
import { memoryOperations } from "./memories.js";
import { serviceOperations } from "./service.js";
import { sharingOperations } from "./sharing.js";
import type { OperationSpec } from "./spec.js";
import { workingOperations } from "./working.js";

export const OPERATIONS = {
  ...memoryOperations,
  ...manageOperations,
  ...lifecycleOperations,
  ...sharingOperations,
  ...workingOperations,
  ...serviceOperations,
} satisfies { [K in MemoryOperation]: OperationSpec<K> };

/** The operations, in the order surfaces list them. */
export const OPERATION_NAMES = Object.keys(OPERATIONS) as MemoryOperation[];

/** Any operation's declaration, for code that walks the registry. */
export function operationSpec(name: MemoryOperation): OperationSpec<MemoryOperation> {
  return OPERATIONS[name] as unknown as OperationSpec<MemoryOperation>;
}

type InputOf<K extends MemoryOperation> = (typeof OPERATIONS)[K]["input"];

/** The operations that take an input object, validated by their schema. */
export type OperationWithInput = {
  [K in MemoryOperation]: InputOf<K> extends z.ZodObject ? K : never;
}[MemoryOperation];

/**
 * The schema that validates each operation's input, by operation name: the CLI checks a
 * command's input with it before opening anything, the library's types are derived from it,
 * and the service validates with the same schemas.
 */
export const OPERATION_INPUTS = Object.fromEntries(
  OPERATION_NAMES.flatMap((name) => {
    const input = OPERATIONS[name].input;
    return input === null ? [] : [[name, input]];
  }),
) as { [K in OperationWithInput]: InputOf<K> };

/** Calls an operation with the input a surface received (the service validates it). */
export function invoke(memory: MemoryApi, name: MemoryOperation, input: unknown): Promise<unknown> {
  const method = memory[name] as (this: MemoryApi, input?: unknown) => Promise<unknown>;
  return OPERATIONS[name].input === null ? method.call(memory) : method.call(memory, input);
}
