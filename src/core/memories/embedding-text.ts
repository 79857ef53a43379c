/**
 * The text a memory's vector is computed from, one definition per layer. Storing, merging,
 * consolidating, summarising and re-embedding (storage/reembed) all embed exactly this text:
 * a memory re-embedded from any other text would rank differently from one stored afterwards.
 */
import type { MemoryLayer } from "../types.js";

/**
 * The fields each layer's text is made of. Re-embedding fingerprints them to notice a memory
 * whose text changed (a merge) after it was re-embedded.
 */
export const EMBEDDED_FIELDS = {
  episodic: ["task_type", "summary"],
  semantic: ["key_text", "value_text"],
} as const satisfies Record<MemoryLayer, readonly string[]>;

export type EmbeddedFields<L extends MemoryLayer> = {
  readonly [K in (typeof EMBEDDED_FIELDS)[L][number]]: string;
};

const TEXT: { [L in MemoryLayer]: (memory: EmbeddedFields<L>) => string } = {
  episodic: (memory) => `${memory.task_type}: ${memory.summary}`,
  semantic: (memory) => `${memory.key_text} ${memory.value_text}`,
};

export function embeddingText<L extends MemoryLayer>(layer: L, memory: EmbeddedFields<L>): string {
  return TEXT[layer](memory);
}
