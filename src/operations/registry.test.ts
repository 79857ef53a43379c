/**
 * The registry's declarations are data with field names in strings: these checks catch a
 * binding that names a field its operation does not have, two surfaces claiming one name, or a
 * declared command that does not reach the command line.
 */
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { registerOperations } from "../cli/commands/operations.js";
import { MEMORY_TOOLS } from "../mcp/tool.js";
import { OPERATION_INPUTS, OPERATION_NAMES, operationSpec } from "./index.js";

const specs = OPERATION_NAMES.map((name) => [name, operationSpec(name)] as const);

function fieldsOf(name: string): Set<string> {
  return new Set(Object.keys(operationSpec(name as never).input?.shape ?? {}));
}

describe("the operation registry", () => {
  it("names only input fields the operation's schema has", () => {
    for (const [name, spec] of specs) {
      const fields = fieldsOf(name);
      const named = [
        ...(spec.http ?? []).flatMap((binding) => [
          ...Object.values(binding.params ?? {}),
          ...(binding.query ?? []),
          ...(binding.requires ?? []),
        ]),
        ...(spec.cli ?? []).flatMap((command) => [
          ...(command.args ?? []).map((arg) => arg.field),
          ...Object.keys(command.options ?? {}),
          ...Object.keys(command.fixed ?? {}),
        ]),
      ];
      for (const field of named) expect(fields, `${name} names '${field}'`).toContain(field);
    }
  });

  it("gives every route, tool and command a name of its own", () => {
    const routes = specs.flatMap(([, spec]) =>
      (spec.http ?? []).map((binding) => `${binding.method} ${binding.path}`),
    );
    const tools = MEMORY_TOOLS.map((tool) => tool.name);
    const commands = specs.flatMap(([, spec]) => (spec.cli ?? []).map((c) => c.command));
    for (const names of [routes, tools, commands]) expect(new Set(names).size).toBe(names.length);
  });

  it("puts every declared command on the command line, with its flags", () => {
    const program = new Command();
    registerOperations(program);
    for (const [, spec] of specs) {
      for (const binding of spec.cli ?? []) {
        let command: Command | undefined = program;
        for (const word of binding.command.split(" ")) {
          command = command?.commands.find((candidate) => candidate.name() === word);
        }
        expect(command, binding.command).toBeDefined();
        const flags = command!.options.map((option) => option.long);
        expect(flags).toContain("--json");
        for (const option of Object.values(binding.options ?? {})) {
          for (const flag of [option].flat()) expect(flags).toContain(flag.flag.split(" ")[0]);
        }
      }
    }
  });

  it("serves every operation with an input on some surface, or says it is the library's", () => {
    // storeEpisodicBatch and access take arrays or several arguments: library and RPC only.
    for (const name of Object.keys(OPERATION_INPUTS)) {
      const spec = operationSpec(name as never);
      expect(spec.http ?? spec.mcp ?? spec.cli, name).not.toBeNull();
    }
  });

  it("declares an MCP tool only with schemas for both directions, and hints from the effect", () => {
    for (const tool of MEMORY_TOOLS) {
      const spec = operationSpec(tool.operation);
      expect(tool.input).toBe(spec.input);
      expect(tool.annotations.readOnlyHint).toBe(spec.effect === "read");
      if (spec.effect !== "read") {
        expect(tool.annotations.destructiveHint).toBe(spec.effect === "destructive");
      }
    }
  });
});
