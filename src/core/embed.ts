import { ErrorCode, HindsightError, wrapError } from "./errors.js";
import type { Embedder, EmbedPurpose } from "./ports.js";

/**
 * Embeds texts and checks the answer: one vector per text, each of the embedder's declared
 * dimension. A vector of the wrong size would fail deep inside the database, or worse, be
 * stored beside incomparable ones.
 */
export async function embedChecked(
  embedder: Embedder,
  texts: readonly string[],
  purpose: EmbedPurpose = "document",
): Promise<Float32Array[]> {
  let vectors: Float32Array[];
  try {
    vectors = await embedder.embed(texts, purpose);
  } catch (error) {
    throw wrapError(ErrorCode.EMBEDDER_FAILED, `embedder ${embedder.id} failed`, error);
  }
  const wrong = vectors.find((vector) => vector.length !== embedder.dimensions);
  if (vectors.length !== texts.length || wrong) {
    throw new HindsightError(
      ErrorCode.EMBEDDER_FAILED,
      `embedder ${embedder.id} returned ${vectors.length} vectors of ${wrong?.length ?? embedder.dimensions} dimensions for ${texts.length} texts; expected ${embedder.dimensions} dimensions`,
    );
  }
  return vectors;
}

/**
 * An embedder that is `embedder` in every respect ranking reads — id, dimensions, scripts,
 * similarity scale — but embeds with `embed` (a cache, a shared instance that must not be
 * closed). One place, so that a wrapper cannot drop a property ranking depends on.
 */
export function embeddingWith(embedder: Embedder, embed: Embedder["embed"]): Embedder {
  return {
    id: embedder.id,
    dimensions: embedder.dimensions,
    ...(embedder.scripts === undefined ? {} : { scripts: embedder.scripts }),
    ...(embedder.similarity === undefined ? {} : { similarity: embedder.similarity }),
    embed,
  };
}
