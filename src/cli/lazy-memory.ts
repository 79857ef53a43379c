/**
 * The memory a CLI command works with, opened on its first valid call: the command's input is
 * checked against the operation's schema before anything is opened, so a bad flag is refused
 * in milliseconds instead of after the store and the embedding model have loaded (3–7 s and
 * ~400 MB). A command that fails before calling anything opens nothing.
 */

import { validate } from "../core/validate.js";
import type { OpenedHindsight as Hindsight } from "../open/hindsight.js";
import { OPERATION_INPUTS } from "../operations/index.js";

export interface LazyMemory {
  memory: Hindsight;
  /** Opens it now (once). */
  open(): Promise<Hindsight>;
  /** The memory if a call opened it; closing is then the caller's. */
  opened(): Hindsight | undefined;
}

export function lazyMemory(
  config: Hindsight["config"],
  /** Opens it for `operation`, the first call's (absent: opened by `open()`). */
  open: (operation?: string) => Promise<Hindsight>,
): LazyMemory {
  let real: Promise<Hindsight> | undefined;
  let settled: Hindsight | undefined;
  const get = (operation?: string) => {
    real ??= open(operation).then((memory) => {
      settled = memory;
      return memory;
    });
    return real;
  };
  const memory = new Proxy({} as Hindsight, {
    get(_target, name) {
      if (name === "config") return config;
      if (name === "then") return undefined; // not a promise
      return async (...args: unknown[]) => {
        // The service validates again (the library's path).
        const schema = OPERATION_INPUTS[name as keyof typeof OPERATION_INPUTS];
        // Validation is idempotent: what passes here passes the service's own check.
        if (schema) validate(schema, args[0] ?? {});
        const opened = await get(name as string);
        const method = (opened as unknown as Record<string, (...a: unknown[]) => unknown>)[
          name as string
        ];
        if (typeof method !== "function") throw new TypeError(`no operation ${String(name)}`);
        return method.apply(opened, args);
      };
    },
  });
  return { memory, open: () => get(), opened: () => settled };
}
