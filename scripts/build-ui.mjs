// Copies the inspector's static files (ui/public) next to its compiled scripts in dist/ui.
import { cp } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
await cp(path.join(root, "ui", "public"), path.join(root, "dist", "ui"), { recursive: true });
