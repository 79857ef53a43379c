import { describe, expect, it } from "vitest";
import { OPERATION_NAMES, operationSpec } from "../operations/index.js";
import { baselineOnly } from "./wasm-tiering.js";

describe("WebAssembly compilation for one CLI call", () => {
  it("compiles baseline only for the calls an agent hook makes on every turn", () => {
    for (const operation of ["storeEpisodic", "recall", "stats", "get"] as const) {
      expect(baselineOnly(operationSpec(operation))).toBe(true);
    }
  });

  it("keeps optimised code for the operations that may walk the whole store, and only them", () => {
    const optimised = OPERATION_NAMES.filter((name) => !baselineOnly(operationSpec(name)));
    expect(optimised.sort()).toEqual(["consolidate", "maintain", "migrate"]);
  });
});
