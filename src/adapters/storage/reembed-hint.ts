/**
 * What to tell someone whose store was built with another embedder than the configured one:
 * the two ways on, re-embedding (which keeps every memory) or going back to the old embedder.
 */
import type { EmbedderIdentity } from "../../core/ports.js";
import { DEFAULT_MODEL } from "../embedders/default-model.js";
import type { RecordedEmbedders } from "./reembed-meta.js";

/** How to configure the embedder that recorded `id` again (see embedders/ for the ids). */
export function configureAgain(id: string): string {
  if (id === "hash-v1") return "set HINDSIGHT_EMBEDDER=hash";
  if (id === `local:${DEFAULT_MODEL}`) return "unset HINDSIGHT_EMBEDDER (the default model)";
  const [kind, ...rest] = id.split(":");
  const model = rest.join(":");
  if (kind === "openai" && model) return `set HINDSIGHT_EMBEDDER=openai EMBEDDING_MODEL=${model}`;
  if (kind === "local" && model) return `set HINDSIGHT_EMBEDDER=local with model '${model}'`;
  return `configure embedder '${id}' again`;
}

/** The end of an EMBEDDER_MISMATCH message: what to do about it. */
export function mismatchAdvice(recorded: RecordedEmbedders, configured: EmbedderIdentity): string {
  const back = recorded.built ? `, or ${configureAgain(recorded.built.id)} to keep using it` : "";
  const pending = recorded.reembedding;
  if (pending?.id === configured.id && pending.dimensions === configured.dimensions) {
    return `re-embedding it for '${configured.id}' was started and not finished: run \`hindsight reembed\` again to finish it (keeps every memory)${back}`;
  }
  return `re-embed it with \`hindsight reembed\` (keeps every memory)${back}`;
}
