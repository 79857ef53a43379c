/**
 * The command line runs from a bundle (scripts/bundle-cli.mjs) that carries its own zod and
 * commander and leaves every other package in node_modules. Two things keep that sound: the
 * bundle imports nothing it should carry, and no package it leaves outside hands zod schemas of
 * its own to ours — today only the MCP SDK depends on zod, and its schemas stay on its side.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const BUNDLE = join(ROOT, "dist", "cli", "bundle");
const BUNDLED = ["zod", "commander"];
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
};

/** The package a bare specifier names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageOf = (specifier: string) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

describe("the command line's bundle", () => {
  it("carries zod and commander, and imports only node's modules and declared packages", () => {
    const files = readdirSync(BUNDLE).filter((name) => name.endsWith(".js"));
    expect(files).toContain("program.js");
    const imported = new Set<string>();
    for (const file of files) {
      const code = readFileSync(join(BUNDLE, file), "utf8");
      for (const [, specifier] of code.matchAll(/(?:\bfrom\s+|\bimport\(\s*)"([^"./][^"]*)"/g)) {
        if (!specifier!.startsWith("node:")) imported.add(packageOf(specifier!));
      }
    }
    expect(imported.size).toBeGreaterThan(0);
    const external = Object.keys(manifest.dependencies).filter((name) => !BUNDLED.includes(name));
    for (const name of imported) expect(external, name).toContain(name);
    for (const name of BUNDLED) expect(imported.has(name), name).toBe(false);
  });

  it("leaves outside no package that depends on zod but the MCP SDK", () => {
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, Record<string, unknown>>;
    };
    const dependsOnZod = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== "" && !entry.dev)
      .filter(([, entry]) =>
        ["dependencies", "peerDependencies", "optionalDependencies"].some(
          (field) => (entry[field] as Record<string, string> | undefined)?.zod !== undefined,
        ),
      )
      .map(([path]) => path.replace(/^.*node_modules\//, ""));
    // zod-to-json-schema is the SDK's own (it converts the SDK's schemas), nobody else's.
    expect(dependsOnZod.sort()).toEqual(["@modelcontextprotocol/sdk", "zod-to-json-schema"]);
    const usersOfConverter = Object.entries(lock.packages)
      .filter(([, entry]) => !entry.dev)
      .filter(
        ([, entry]) =>
          (entry.dependencies as Record<string, string> | undefined)?.["zod-to-json-schema"],
      )
      .map(([path]) => path.replace(/^.*node_modules\//, ""));
    expect(usersOfConverter).toEqual(["@modelcontextprotocol/sdk"]);
  });
});
