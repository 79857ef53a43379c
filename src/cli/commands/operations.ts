/**
 * The commands of the memory operations, derived from the operation registry: each `cli`
 * binding becomes a command whose arguments and flags fill the operation's input fields, typed
 * by the field's schema (numbers, comma-separated lists, JSON objects), then one call and its
 * result — as text, or as JSON with `--json`.
 */
import { type Command, Option } from "commander";
import type { z } from "zod";
import { invalidInput } from "../../core/errors.js";
import type { MemoryOperation } from "../../core/memory-api.js";
import { fieldKind, numberFromText } from "../../operations/fields.js";
import { invoke, OPERATION_NAMES, operationSpec } from "../../operations/index.js";
import type { CliCommand, CliFlag, OperationSpec } from "../../operations/spec.js";
import { withHindsight } from "../context.js";
import { type FlagNames, printResult } from "../output.js";
import { csv, jsonObject, readStdin } from "../parse.js";
import { compileWasmForOneCall } from "../wasm-tiering.js";

type Spec = OperationSpec<MemoryOperation>;
type Binding = CliCommand<unknown>;

/** The commands that group others (`hindsight working append`), and what they are for. */
const COMMAND_GROUPS: Record<string, string> = {
  working: "working memory: the current task's context under a token budget",
  share: "shared memory: groups of agents, source trust, and the quarantine of low-trust writes",
};

const flagsOf = (option: CliFlag | readonly CliFlag[]): readonly CliFlag[] =>
  Array.isArray(option) ? option : [option as CliFlag];

/** `--task-type <type>` → `--task-type`. */
const flagName = (flag: CliFlag) => flag.flag.split(/[ ,]/)[0]!;

/** How errors name the fields: as the user typed them. */
function flagNames(binding: Binding): FlagNames {
  return {
    ...Object.fromEntries((binding.args ?? []).map((arg) => [arg.field, arg.syntax])),
    ...Object.fromEntries(
      Object.entries(binding.options ?? {}).map(([field, option]) => [
        field,
        flagsOf(option).map(flagName).join("/"),
      ]),
    ),
  };
}

/** A value typed on the command line in the shape of the field's schema. */
function typed(field: string, schema: z.ZodType | undefined, value: unknown): unknown {
  // A repeatable flag's values, each of which may be a comma list itself.
  if (Array.isArray(value) && schema && fieldKind(schema) === "array") {
    return value.flatMap((item) => (typeof item === "string" ? csv(item) : [item]));
  }
  if (typeof value !== "string" || !schema) return value;
  switch (fieldKind(schema)) {
    case "number":
      return numberFromText(value);
    case "array":
      return csv(value);
    case "object":
      return jsonObject(field, value);
    default:
      return value;
  }
}

async function inputOf(
  spec: Spec,
  binding: Binding,
  positional: unknown[],
  options: Record<string, unknown>,
  parsed: Map<CliFlag, Option>,
): Promise<Record<string, unknown>> {
  const shape = spec.input?.shape ?? {};
  const input: Record<string, unknown> = {};
  (binding.args ?? []).forEach((arg, index) => {
    const value = positional[index];
    if (value !== undefined) input[arg.field] = typed(arg.field, shape[arg.field], value);
  });
  for (const [field, option] of Object.entries(binding.options ?? {})) {
    const flags = flagsOf(option);
    const given: unknown[] = [];
    for (const flag of flags) {
      let value = options[parsed.get(flag)!.attributeName()];
      if (value === undefined) continue;
      if (flag.value !== undefined) value = flag.value;
      else if (flag.stdin && value === "-") value = await readStdin();
      given.push(typed(field, shape[field], value));
    }
    // Several flags for one field (--useful / --not-useful) are alternatives: exactly one,
    // or none when the field may be left out.
    const required = flags.length > 1 && shape[field]?.safeParse(undefined).success === false;
    if (given.length > 1 || (given.length === 0 && required)) {
      throw invalidInput(field, `give exactly one of ${flags.map(flagName).join(" or ")}`);
    }
    if (given.length === 1) input[field] = given[0];
  }
  return { ...input, ...binding.fixed };
}

function register(parent: Command, name: MemoryOperation, spec: Spec, binding: Binding): void {
  const command = parent
    .command(binding.command.split(" ").at(-1)!)
    .description(binding.description);
  if (binding.alias) command.alias(binding.alias);
  for (const arg of binding.args ?? []) command.argument(arg.syntax, arg.help);
  const parsed = new Map<CliFlag, Option>();
  for (const option of Object.values(binding.options ?? {})) {
    for (const flag of flagsOf(option)) {
      const commanderOption = new Option(flag.flag, flag.help);
      if (flag.default !== undefined) commanderOption.default(flag.default);
      if (flag.repeatable) {
        commanderOption.argParser((value: string, previous: string[] | undefined) => [
          ...(previous ?? []),
          value,
        ]);
      }
      command.addOption(commanderOption);
      parsed.set(flag, commanderOption);
    }
  }
  command.option("--json", "print the result as JSON");
  const names = flagNames(binding);
  command.action(async (...params: unknown[]) => {
    // commander passes the positional arguments, then the options, then the command.
    const self = params.at(-1) as Command;
    const options = params.at(-2) as Record<string, unknown> & { json?: boolean };
    compileWasmForOneCall(spec);
    await withHindsight(self, options, names, async (memory, logger) => {
      const input = await inputOf(spec, binding, params.slice(0, -2), options, parsed);
      const result = await invoke(memory, name, input);
      const notice = binding.notice?.(result);
      if (notice) logger.info(notice);
      printResult(result, options, () => binding.human(result, input));
    });
  });
}

/** Registers every operation's commands, in the registry's order. */
export function registerOperations(program: Command): void {
  const groups = new Map<string, Command>();
  const parentOf = (words: string[]): Command => {
    if (words.length === 1) return program;
    const [group] = words;
    const description = COMMAND_GROUPS[group!];
    if (words.length !== 2 || description === undefined) {
      throw new Error(`command '${words.join(" ")}': no command group '${group}'`);
    }
    let parent = groups.get(group!);
    if (!parent) {
      parent = program.command(group!).description(description);
      groups.set(group!, parent);
    }
    return parent;
  };
  for (const name of OPERATION_NAMES) {
    const spec = operationSpec(name);
    for (const binding of spec.cli ?? []) {
      register(parentOf(binding.command.split(" ")), name, spec, binding as Binding);
    }
  }
}
