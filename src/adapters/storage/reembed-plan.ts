/**
 * What a re-embedding run has to do, from what the store records: nothing, start afresh, or
 * resume an interrupted run toward the same embedder.
 */
import type { EmbedderIdentity } from "../../core/ports.js";
import type { RecordedEmbedders } from "./reembed-meta.js";

export interface ReembedState extends RecordedEmbedders {
  /** Whether the staging table of a run exists (see reembed-sql). */
  staging: boolean;
}

export type ReembedPlan =
  /** The vectors already come from the target (or the store is new). */
  | { action: "nothing"; discard: boolean }
  | { action: "reembed"; resume: boolean; discard: boolean };

export function sameEmbedder(a: EmbedderIdentity | undefined, b: EmbedderIdentity): boolean {
  return a !== undefined && a.id === b.id && a.dimensions === b.dimensions;
}

/**
 * `discard`: an unfinished run's staging is thrown away — it was toward another embedder, or
 * it is incomplete (table or target missing, which a crash between statements cannot leave,
 * but a person dropping things by hand can).
 */
export function planReembed(state: ReembedState, target: EmbedderIdentity): ReembedPlan {
  const leftover = state.staging || state.reembedding !== undefined;
  if (state.built === undefined || sameEmbedder(state.built, target)) {
    return { action: "nothing", discard: leftover };
  }
  const resume = state.staging && sameEmbedder(state.reembedding, target);
  return { action: "reembed", resume, discard: leftover && !resume };
}
