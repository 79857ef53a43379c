// Appends many working-memory items at once from a process of its own, for concurrency tests:
// argv: <config JSON> <session> <label> <count>. Prints {"seqs": [...]} or {"error": {...}}.
import { createHindsight } from "../../dist/index.js";

const [config, session, label, count] = process.argv.slice(2);
// The hash embedder: these helpers test storage, not embedding (no model to load).
const memory = await createHindsight({
  lockTimeoutMs: 20_000,
  embedder: { kind: "hash" },
  ...JSON.parse(config),
});
try {
  const results = await Promise.all(
    Array.from({ length: Number(count) }, (_, index) =>
      memory.workingAppend({
        session_id: session,
        role: index % 2 === 0 ? "assistant" : "tool",
        kind: index % 2 === 0 ? "message" : "result",
        content: `${label} item ${index}: checked shard ${label}-${index} of the orders table and found it consistent`,
      }),
    ),
  );
  process.stdout.write(`${JSON.stringify({ seqs: results.map((result) => result.seq) })}\n`);
} catch (error) {
  process.stdout.write(
    `${JSON.stringify({ error: { code: error.code, message: error.message } })}\n`,
  );
} finally {
  await memory.close();
}
