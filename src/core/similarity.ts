/**
 * One scale for cosine similarity, whatever the model.
 *
 * Sentence-embedding models spread cosines very differently: all-MiniLM-L6-v2 gives a query
 * and an unrelated memory about 0.1 and a related one about 0.5, while multilingual-e5 gives
 * them about 0.80 and 0.88. Ranking fuses the cosine with BM25 under fixed weights, applies a
 * score floor, and lifecycle code merges near-duplicates above a similarity threshold; with
 * e5's raw cosines every memory would clear the floor on its vector signal alone, and the
 * vector signal would hardly vary. So each cosine is first mapped onto the reference scale —
 * the one the weights, the floor and the thresholds were chosen on — by the affine map that
 * takes the model's typical unrelated and related cosines (`SimilarityScale`, measured on
 * hindsight's own labelled sets: docs/embedding-models.md) to the reference's.
 */
import type { SimilarityScale } from "./ports.js";

/** all-MiniLM-L6-v2 on hindsight's regression set (English queries), rounded. */
export const REFERENCE_SCALE: SimilarityScale = { unrelated: 0.1, related: 0.5 };

/** The cosine on the reference scale, within −1..1; unchanged without a scale. */
export function calibratedSimilarity(cosine: number, scale: SimilarityScale | undefined): number {
  if (scale === undefined || !Number.isFinite(cosine)) return cosine;
  const slope =
    (REFERENCE_SCALE.related - REFERENCE_SCALE.unrelated) / (scale.related - scale.unrelated);
  const mapped = REFERENCE_SCALE.unrelated + (cosine - scale.unrelated) * slope;
  return Math.min(1, Math.max(-1, mapped));
}
