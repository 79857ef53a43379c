/**
 * The installed package's root directory and version, found by walking up from this module to
 * the package.json that names hindsight. The same module runs from src/ (tests), from dist/
 * (tsc's output, the library) and from the command line's bundle in dist/cli/bundle/, each at
 * another depth: files shipped with the package (package.json, the UI, the models' cache) are
 * found from the root, never by counting levels up from wherever the code happens to be.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_NAME = "hindsight-memory";

function findPackage(from: string): { root: string; version: string } {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === PACKAGE_NAME) return { root: dir, version: String(manifest.version) };
    } catch {
      // No package.json here (or not one we can read): look one level up.
    }
    if (dirname(dir) === dir) {
      throw new Error(`${PACKAGE_NAME}: no package.json of its own above ${from}`);
    }
  }
}

const found = findPackage(dirname(fileURLToPath(import.meta.url)));

export const PACKAGE_ROOT = found.root;
export const PACKAGE_VERSION = found.version;
