import { describe, expect, it } from "vitest";
import { planReembed } from "./reembed-plan.js";

const a = { id: "hash-v1", dimensions: 384 };
const b = { id: "openai:m", dimensions: 64 };
const c = { id: "openai:m", dimensions: 32 };

describe("planReembed", () => {
  it("does nothing when the vectors come from the target already, or the store is new", () => {
    expect(planReembed({ built: a, staging: false }, a)).toEqual({
      action: "nothing",
      discard: false,
    });
    expect(planReembed({ staging: false }, a)).toEqual({ action: "nothing", discard: false });
  });

  it("discards an unfinished run toward another embedder when the target is the built one", () => {
    expect(planReembed({ built: a, reembedding: b, staging: true }, a)).toEqual({
      action: "nothing",
      discard: true,
    });
  });

  it("starts afresh toward a new embedder", () => {
    expect(planReembed({ built: a, staging: false }, b)).toEqual({
      action: "reembed",
      resume: false,
      discard: false,
    });
  });

  it("resumes a run toward the same embedder, id and dimension alike", () => {
    expect(planReembed({ built: a, reembedding: b, staging: true }, b)).toEqual({
      action: "reembed",
      resume: true,
      discard: false,
    });
    expect(planReembed({ built: a, reembedding: b, staging: true }, c)).toEqual({
      action: "reembed",
      resume: false,
      discard: true,
    });
  });

  it("starts over when only half of a run's state is there", () => {
    expect(planReembed({ built: a, reembedding: b, staging: false }, b)).toMatchObject({
      resume: false,
      discard: true,
    });
    expect(planReembed({ built: a, staging: true }, b)).toMatchObject({
      resume: false,
      discard: true,
    });
  });
});
