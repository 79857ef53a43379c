/**
 * An on-disk cache of embeddings for evaluations (`hindsight eval … --embedding-cache FILE`):
 * comparing ranking methods re-embeds the same turns and questions on every run, which with a
 * 12-layer model is most of an evaluation's time. Entries are keyed by the embedder, the
 * purpose and the text, so one file serves one model and a changed text is embedded again.
 *
 * The file is a sequence of records — 32-byte sha256 key, then `dimensions` little-endian
 * float32 — appended when the evaluation closes. Evaluation only: recall never reads it.
 */
import { createHash } from "node:crypto";
import { appendFile, readFile } from "node:fs/promises";
import { embeddingWith } from "../core/embed.js";
import type { Embedder, EmbedPurpose } from "../core/ports.js";

const KEY_BYTES = 32;

/**
 * What a purpose's vectors are made of, in the key: a change to how queries are embedded that
 * leaves the embedder id as it is (stored vectors did not change) must not reuse old entries.
 * "query/2": since 2026-12-07 a local model with prefixes embeds a query both as a query and as
 * a passage.
 */
const FORM: Record<EmbedPurpose, string> = { query: "query/2", document: "document" };

function keyOf(embedderId: string, purpose: EmbedPurpose, text: string): string {
  return createHash("sha256").update(`${embedderId}\0${FORM[purpose]}\0${text}`).digest("hex");
}

async function load(file: string, dimensions: number): Promise<Map<string, Float32Array>> {
  const cache = new Map<string, Float32Array>();
  const data = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (!data) return cache;
  const record = KEY_BYTES + dimensions * 4;
  if (data.length % record !== 0) {
    throw new Error(
      `${file} is not an embedding cache of ${dimensions}-dimension vectors (another model's?)`,
    );
  }
  for (let offset = 0; offset < data.length; offset += record) {
    const key = data.subarray(offset, offset + KEY_BYTES).toString("hex");
    const vector = new Float32Array(dimensions);
    Buffer.from(vector.buffer).set(data.subarray(offset + KEY_BYTES, offset + record));
    cache.set(key, vector);
  }
  return cache;
}

export interface CachingEmbedder extends Embedder {
  /** Appends what was embedded since opening to the file. */
  flush(): Promise<void>;
}

export async function cachingEmbedder(inner: Embedder, file: string): Promise<CachingEmbedder> {
  const cache = await load(file, inner.dimensions);
  const added: Buffer[] = [];
  const embed: Embedder["embed"] = async (texts, purpose = "document") => {
    const keys = texts.map((text) => keyOf(inner.id, purpose, text));
    const missing = [...new Set(keys.filter((key) => !cache.has(key)))];
    if (missing.length > 0) {
      const textOf = new Map(keys.map((key, index) => [key, texts[index]!]));
      const vectors = await inner.embed(
        missing.map((key) => textOf.get(key)!),
        purpose,
      );
      missing.forEach((key, index) => {
        const vector = vectors[index]!;
        cache.set(key, vector);
        added.push(
          Buffer.from(key, "hex"),
          Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
        );
      });
    }
    return keys.map((key) => cache.get(key)!);
  };
  return {
    ...embeddingWith(inner, embed),
    async flush() {
      if (added.length === 0) return;
      await appendFile(file, Buffer.concat(added.splice(0)));
    },
  };
}
