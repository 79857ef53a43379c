import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT, PACKAGE_VERSION } from "./package-root.js";

describe("package root", () => {
  it("is the directory of hindsight's own package.json, with its version", () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8"));
    expect(manifest.name).toBe("hindsight-memory");
    expect(PACKAGE_VERSION).toBe(manifest.version);
    expect(readFileSync(join(PACKAGE_ROOT, "src", "package-root.ts"), "utf8")).toContain(
      "PACKAGE_ROOT",
    );
  });
});
