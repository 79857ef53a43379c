/**
 * The MCP tools, derived from the operation registry (operations/): every operation with an
 * `mcp` binding is a tool, its input schema the one the service validates with, its output
 * schema the JSON of its result. Tools are thin translators: the arguments are passed as
 * received and the service validates each call once.
 */
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { MemoryApi, MemoryOperation } from "../core/memory-api.js";
import { toJson } from "../core/outputs.js";
import type { Logger } from "../core/ports.js";
import { invoke, OPERATION_NAMES, operationSpec } from "../operations/index.js";
import type { Effect } from "../operations/spec.js";
import { toolError } from "./errors.js";

export interface MemoryTool {
  operation: MemoryOperation;
  name: string;
  title: string;
  /** Tells the model when to call the tool, not only what it does. */
  description: string;
  input: z.ZodObject;
  /** The output schema clients are shown: MCP lists object schemas only (see listedOutput). */
  output: z.ZodObject;
  /** The operation's own output schema, every result is checked with before it is sent. */
  check: z.ZodType;
  annotations: ToolAnnotations;
  /** What the model reads, from the operation's result. */
  text(result: unknown): string;
}

/** MCP's hints from what the operation does; none of our tools reaches outside memory. */
export function toolAnnotations(effect: Effect, idempotent: boolean): ToolAnnotations {
  if (effect === "read") return { readOnlyHint: true, openWorldHint: false };
  return {
    readOnlyHint: false,
    destructiveHint: effect === "destructive",
    idempotentHint: idempotent,
    openWorldHint: false,
  };
}

/**
 * An output schema as MCP lists it: an object. A union of objects (a memory of either layer)
 * becomes one object with every option's fields — those of all options as they are (one type,
 * or the union of theirs), the others optional — so a client still sees each field and its type.
 */
export function listedOutput(schema: z.ZodType): z.ZodObject {
  if (schema instanceof z.ZodObject) return schema;
  const options = (schema as { options?: unknown }).options;
  if (
    !(schema instanceof z.ZodUnion || schema instanceof z.ZodDiscriminatedUnion) ||
    !Array.isArray(options) ||
    !options.every((option) => option instanceof z.ZodObject)
  ) {
    throw new Error("an MCP tool's output must be an object or a union of objects");
  }
  const objects = options as z.ZodObject[];
  const keys = [...new Set(objects.flatMap((object) => Object.keys(object.shape)))];
  const shape = Object.fromEntries(
    keys.map((key) => {
      const types = objects.flatMap((object) => (key in object.shape ? [object.shape[key]!] : []));
      const type = types.length === 1 ? types[0]! : z.union(types as [z.ZodType, z.ZodType]);
      return [key, types.length === objects.length ? type : type.optional()];
    }),
  );
  const listed = z.object(shape);
  return schema.description ? listed.describe(schema.description) : listed;
}

/** Every tool the server lists, in the registry's order (the order clients show them). */
export const MEMORY_TOOLS: readonly MemoryTool[] = OPERATION_NAMES.flatMap((operation) => {
  const spec = operationSpec(operation);
  const mcp = spec.mcp;
  if (!mcp) return [];
  if (!spec.input || !spec.output) {
    throw new Error(`operation ${operation}: an MCP tool needs input and output schemas`);
  }
  return [
    {
      operation,
      name: mcp.name,
      title: mcp.title,
      description: mcp.description,
      input: spec.input,
      output: listedOutput(spec.output),
      check: spec.output,
      annotations: toolAnnotations(spec.effect, mcp.idempotent),
      text: mcp.text as (result: unknown) => string,
    },
  ];
});

/**
 * Runs a tool on raw arguments. The service validates them with the tool's own schema (not the
 * SDK, and not twice), so a bad argument is an `isError` result naming the field, as the MCP
 * spec asks, with the same message the CLI and REST give.
 */
export async function runTool(
  tool: MemoryTool,
  memory: MemoryApi,
  args: unknown,
  logger: Logger,
): Promise<CallToolResult> {
  try {
    const result = await invoke(memory, tool.operation, args ?? {});
    const structured = toJson(result) as Record<string, unknown>;
    // The SDK's McpServer checks this too; we replaced its tools/call handler, so keep the
    // promise here: a client must never receive structuredContent its schema rejects.
    const checked = tool.check.safeParse(structured);
    if (!checked.success) {
      throw new Error(`${tool.name} produced output outside its schema: ${checked.error.message}`);
    }
    return { content: [{ type: "text", text: tool.text(result) }], structuredContent: structured };
  } catch (error) {
    return toolError(error, tool.name, logger);
  }
}
