/**
 * A correction by hand, in one transaction: the row's columns, its vector and search words
 * (the BM25 statistics moved from the old words to the new), and the `updated` event in its
 * history and the audit log.
 */
import type { MemoryCorrection } from "../../core/memories/ports.js";
import { withOwnWords } from "../../core/recall/search-text.js";
import { type SqlExecutor, toVectorLiteral } from "./executor.js";
import { recordEvents } from "./lifecycle-sql.js";
import { TABLE } from "./rows.js";
import { termsOf, updateCorpus } from "./search-index.js";

export async function applyCorrection(tx: SqlExecutor, change: MemoryCorrection): Promise<boolean> {
  const table = TABLE[change.layer];
  const [old] = await tx.query<{ search_text: string }>(
    `SELECT search_text FROM ${table} WHERE id = $1 FOR UPDATE`,
    [change.id],
  );
  if (!old) return false;
  const columns: Record<string, unknown> = { ...change.set };
  if (change.embedding) columns.embedding = toVectorLiteral(change.embedding);
  let searchText: string | undefined;
  if (change.search_text !== undefined) {
    searchText = withOwnWords(old.search_text, change.search_text);
    columns.search_text = searchText;
    columns.terms = termsOf(searchText);
  }
  if (change.layer === "semantic") columns.updated_at = change.at;
  const names = Object.keys(columns);
  await tx.query(
    `UPDATE ${table} SET ${names.map((name, index) => `${name} = $${index + 2}`).join(", ")}
     WHERE id = $1`,
    [change.id, ...names.map((name) => columns[name])],
  );
  if (searchText !== undefined && searchText !== old.search_text) {
    await updateCorpus(tx, change.layer, [old.search_text], -1);
    await updateCorpus(tx, change.layer, [searchText], 1);
  }
  await recordEvents(
    tx,
    change.layer,
    [change.id],
    "updated",
    change.at,
    change.reason,
    change.details,
  );
  return true;
}
