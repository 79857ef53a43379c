/**
 * The semantic store pipeline: sharing admitted (or refused) first, then embedded and added
 * as knowledge — merged into a near-duplicate, or superseding a contradicted fact (see
 * lifecycle/knowledge).
 */
import { randomUUID } from "node:crypto";
import type { Lifecycle } from "../lifecycle/lifecycle.js";
import type { Clock, Logger } from "../ports.js";
import { searchText } from "../recall/search-text.js";
import { parseInstant } from "../recall/time/range.js";
import { StoreSemanticInput } from "../schemas.js";
import type { SharedMemory } from "../sharing/sharing.js";
import type { Caller, StoredKnowledge } from "../sharing/types.js";
import { isoDates, validate } from "../validate.js";
import { embeddingText } from "./embedding-text.js";
import { scopeOf, storableConfidence } from "./fields.js";
import type { NewSemantic } from "./ports.js";

export interface KnowledgeWriterDeps {
  clock: Clock;
  logger: Logger;
  shared: SharedMemory;
  lifecycle: Lifecycle;
  embed(texts: string[]): Promise<Float32Array[]>;
}

export async function storeKnowledge(
  deps: KnowledgeWriterDeps,
  input: unknown,
  caller?: Caller,
): Promise<StoredKnowledge> {
  const item = validate(StoreSemanticInput, isoDates(input));
  const sharing = await deps.shared.admit(item, caller);
  const [embedding] = await deps.embed([embeddingText("semantic", item)]);
  const now = deps.clock.now();
  const row: NewSemantic = {
    id: item.id ?? randomUUID(),
    key_text: item.key_text,
    value_text: item.value_text,
    task_type: item.task_type ?? null,
    confidence: storableConfidence(item.confidence),
    created_at: now,
    updated_at: now,
    valid_from: item.valid_from ? parseInstant(item.valid_from)! : now,
    valid_to: null,
    ...scopeOf(item),
    status: "active",
    embedding: embedding!,
    search_text: searchText([item.key_text, item.value_text, ...(item.tags ?? [])]),
    source_episode_ids: [...new Set(item.source_episode_ids ?? [])],
    ...sharing,
  };
  const added = await deps.lifecycle.addKnowledge({ row, requestId: item.id, reason: "stored" });
  if (sharing.shared_group === null) return added;
  if (sharing.review_status === "quarantined") {
    deps.logger.info("shared memory quarantined until reviewed", {
      id: added.id,
      group: sharing.shared_group,
      source: item.source,
    });
  }
  return { ...added, shared_group: sharing.shared_group, review_status: sharing.review_status! };
}
