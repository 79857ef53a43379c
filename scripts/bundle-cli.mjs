// Bundles the command line (dist/cli/program.js, what it imports of ours, zod and commander)
// into a few files in dist/cli/bundle/. Every one-shot command loads its modules anew, and
// Node resolves, reads and links each ES module on its own: ~70 of ours and zod's ~95 (it
// loads all of its locales) cost a refused command about a third of its time
// (docs/benchmarks.md). What a command loads only when it runs (serve, eval, the store) stays
// a chunk of its own.
//
// zod is bundled because it is most of that cost. The other packages stay outside, loaded from
// node_modules: none of them imports zod except the MCP SDK, whose own schemas then use
// node_modules' copy while ours use the bundled one. That is safe because zod 4 validates and
// converts through each schema's own `_zod` internals, and keeps its registry of metadata on
// globalThis (test/mcp*.test.ts run the real SDK against the bundled CLI).
import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { rolldown } from "rolldown";

const OUT = "dist/cli/bundle";
const BUNDLED = ["zod", "commander"];
const manifest = JSON.parse(readFileSync("package.json", "utf8"));
const packages = Object.keys(manifest.dependencies ?? {}).filter((name) => !BUNDLED.includes(name));
const external = (id) =>
  id.startsWith("node:") || packages.some((name) => id === name || id.startsWith(`${name}/`));

await rm(OUT, { recursive: true, force: true });
const bundle = await rolldown({ input: "dist/cli/program.js", platform: "node", external });
await bundle.write({ dir: OUT, format: "esm" });
await bundle.close();
