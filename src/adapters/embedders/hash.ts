/**
 * The built-in offline embedder: feature hashing of word tokens and character n-grams.
 * Deterministic and dependency-free, so hindsight works with no model and no network; it
 * captures lexical overlap (shared words, shared word pieces), not meaning.
 */
import type { Embedder } from "../../core/ports.js";
import { isCjk, wordTokens } from "../../text/tokenize.js";

export const HASH_EMBEDDER_DIMENSIONS = 384;
const WORD_WEIGHT = 1;
const PIECE_WEIGHT = 0.8;

/** FNV-1a, 32 bit: fast, well spread for short strings, identical on every platform. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Sub-word pieces: character trigrams of `<word>` for alphabetic words (so "deploy" and
 * "deployment" share most features), single characters and bigrams for CJK words (so 服务器
 * and 服务 overlap even when segmentation differs).
 */
function pieces(token: string): string[] {
  const out: string[] = [];
  if (isCjk(token)) {
    const chars = [...token];
    if (chars.length === 1) return out;
    for (let i = 0; i < chars.length; i++) {
      out.push(chars[i]!);
      if (i + 1 < chars.length) out.push(chars[i]! + chars[i + 1]!);
    }
    return out;
  }
  const padded = `<${token}>`;
  if (padded.length <= 4) return out;
  for (let i = 0; i + 3 <= padded.length; i++) out.push(padded.slice(i, i + 3));
  return out;
}

function addFeature(vector: Float32Array, feature: string, weight: number): void {
  const hash = fnv1a(feature);
  const sign = hash & 0x80000000 ? -1 : 1;
  const index = hash % vector.length;
  vector[index] = (vector[index] ?? 0) + sign * weight;
}

export function hashEmbed(text: string, dimensions = HASH_EMBEDDER_DIMENSIONS): Float32Array {
  const vector = new Float32Array(dimensions);
  const tokens = wordTokens(text);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    addFeature(vector, `w:${token}`, WORD_WEIGHT);
    // Adjacent CJK characters split by the segmenter still form a word often enough to count.
    const next = tokens[i + 1];
    if (next !== undefined && isCjk(token) && isCjk(next)) {
      addFeature(vector, `w:${token}${next}`, PIECE_WEIGHT);
    }
    const parts = pieces(token);
    const pieceWeight = parts.length > 0 ? PIECE_WEIGHT / Math.sqrt(parts.length) : 0;
    for (const part of parts) addFeature(vector, `p:${part}`, pieceWeight);
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < vector.length; i++) vector[i]! *= scale;
  }
  return vector;
}

export function createHashEmbedder(dimensions = HASH_EMBEDDER_DIMENSIONS): Embedder {
  return {
    id: dimensions === HASH_EMBEDDER_DIMENSIONS ? "hash-v1" : `hash-v1-${dimensions}`,
    dimensions,
    embed: async (texts) => texts.map((text) => hashEmbed(text, dimensions)),
  };
}
