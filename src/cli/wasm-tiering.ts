/**
 * How V8 compiles the embedded store's WebAssembly in a process that runs one command.
 *
 * V8 compiles a module with its baseline compiler (Liftoff), then compiles the functions that
 * run hot again, optimised, on background threads. A process that exits after one `store` or
 * `recall` never lives long enough to gain from the optimised code and pays for it twice: the
 * recompilation competes for the cores with opening the store and loading the model, and Node
 * waits at exit until every background compile job has finished — 100–150 ms of idle wall time
 * after the store has closed (docs/benchmarks.md, step 7). A long job does gain from it (2,000
 * HNSW inserts ran ~1.7× faster optimised), so servers, imports and the operations that may
 * walk the whole store (`wholeStore` in their spec) keep V8's default.
 */
import { setFlagsFromString } from "node:v8";
import type { MemoryOperation } from "../core/memory-api.js";
import type { OperationSpec } from "../operations/spec.js";

type Spec = OperationSpec<MemoryOperation>;

/** Whether a one-shot call of the operation is better served by baseline compilation alone. */
export function baselineOnly(spec: Spec): boolean {
  return spec.wholeStore !== true;
}

/**
 * Sets how this process compiles WebAssembly for one call of the operation. V8 reads the flag
 * when it compiles a module, so this must run before the store opens (the flag is the
 * process's: the model's thread runs native code and is not affected).
 */
export function compileWasmForOneCall(spec: Spec): void {
  if (baselineOnly(spec)) setFlagsFromString("--liftoff-only");
}
