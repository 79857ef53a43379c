// A hindsight process for multi-process tests: opens the data directory given in argv, then
// runs one JSON command per stdin line ({"op": "storeEpisodic", "args": [...]}) and prints one
// JSON line per answer ({"ok": true, "result": …} or {"ok": false, "error": {code, message}}).
import { createInterface } from "node:readline";
import { createHindsight } from "../../dist/index.js";

// The hash embedder: these helpers test storage, not embedding (no model to load).
const memory = await createHindsight({
  dataDir: process.argv[2],
  lockTimeoutMs: 20_000,
  embedder: { kind: "hash" },
});
const role = await memory.role?.();
process.stdout.write(`${JSON.stringify({ ready: true, pid: process.pid, role })}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  const { op, args = [] } = JSON.parse(line);
  if (op === "exit") break;
  try {
    const result = op === "role" ? await memory.role() : await memory[op](...args);
    process.stdout.write(`${JSON.stringify({ ok: true, result })}\n`);
  } catch (error) {
    process.stdout.write(
      `${JSON.stringify({ ok: false, error: { code: error.code, message: error.message } })}\n`,
    );
  }
}
await memory.close();
process.stdin.destroy(); // the parent keeps its end open; let the process exit
