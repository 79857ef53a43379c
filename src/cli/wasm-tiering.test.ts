import { describe, expect, it } from "vitest";
import { OPERATION_NAMES } from "../operations/index.js";
import { baselineOnly } from "./wasm-tiering.js";

describe("WebAssembly compilation for one CLI call", () => {
  it("compiles baseline only for the calls an agent hook makes on every turn", () => {
    for (const operation of ["storeEpisodic", "recall", "stats", "get"] as const) {
      expect(OPERATION_NAMES).toContain(operation);
      expect(baselineOnly(operation)).toBe(true);
    }
  });

  it("keeps optimised code for the operations that may walk the whole store", () => {
    for (const operation of ["maintain", "consolidate", "migrate"] as const) {
      expect(OPERATION_NAMES).toContain(operation);
      expect(baselineOnly(operation)).toBe(false);
    }
  });
});
