/**
 * The OpenAPI 3.1 document, generated from the route declarations and the same zod schemas
 * that validate requests (input side) and describe results (output side).
 */
import { z } from "zod";
import { VERSION } from "../cli/version.js";
import { ErrorOutput } from "../core/outputs.js";
import { OPERATION_NAMES, operationSpec } from "../operations/index.js";
import type { RouteSpec } from "./route.js";

type JsonSchema = Record<string, unknown>;

const pascal = (name: string) => name[0]!.toUpperCase() + name.slice(1);

/**
 * Schemas that become named components: each operation's input (`RecallInput`) and output
 * (`RecallOutput`), named after the first operation that uses them; anything else is inlined
 * where it is used.
 */
const NAMED = new Map<z.ZodType, string>([[ErrorOutput, "ErrorOutput"]]);
for (const name of OPERATION_NAMES) {
  const spec = operationSpec(name);
  if (!spec.http) continue;
  for (const [schema, suffix] of [
    [spec.input, "Input"],
    [spec.output, "Output"],
  ] as const) {
    if (schema && !NAMED.has(schema)) NAMED.set(schema, `${pascal(name)}${suffix}`);
  }
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid input; `field` names the input at fault.",
  401: "Missing or wrong API key.",
  403: "Host or Origin not allowed (FORBIDDEN), or shared memory refused the write (PERMISSION_DENIED).",
  404: "No memory with that id, or no group with that name.",
  413: "Request body too large.",
  429: "Too many requests from this client; retry after `Retry-After` seconds.",
  500: "Server failure or misconfiguration.",
  503: "The store or the embedder is unavailable; retry later.",
};

class Components {
  readonly schemas: Record<string, JsonSchema> = {};

  /**
   * A zod schema as JSON Schema. zod puts recursive parts (JSON values) in local `$defs`,
   * which inside an OpenAPI document would resolve against the document root, so they are
   * moved to components and their references rewritten.
   */
  convert(schema: z.ZodType, io: "input" | "output", prefix: string): JsonSchema {
    const key = NAMED.get(schema);
    if (key && this.schemas[key]) return { $ref: `#/components/schemas/${key}` };
    const {
      $schema: _,
      $defs,
      ...body
    } = z.toJSONSchema(schema, {
      io,
      unrepresentable: "any",
    }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    // zod names them `__schema0`; `StoreEpisodicInput_schema0` says where they come from.
    const component = (def: string) => `${key ?? prefix}_${def.replace(/^_+/, "")}`;
    const rename = (text: string) =>
      text.replace(/"#\/\$defs\/([^"]+)"/g, (_match, def: string) =>
        JSON.stringify(`#/components/schemas/${component(def)}`),
      );
    for (const [def, value] of Object.entries($defs ?? {})) {
      this.schemas[component(def)] = JSON.parse(rename(JSON.stringify(value)));
    }
    const converted = JSON.parse(rename(JSON.stringify(body))) as JsonSchema;
    if (!key) return converted;
    this.schemas[key] = converted;
    return { $ref: `#/components/schemas/${key}` };
  }
}

function operation(route: RouteSpec, components: Components, options: OpenApiOptions): JsonSchema {
  const bearer = options.bearerAuth;
  const parameters = [
    ...Object.entries(route.request?.path ?? {}).map(([name, schema]) => ({
      name,
      in: "path",
      required: true,
      schema: components.convert(schema, "input", `${route.operationId}_${name}`),
    })),
    ...Object.entries(route.request?.query ?? {}).map(([name, schema]) => ({
      name,
      in: "query",
      required: !schema.safeParse(undefined).success,
      schema: components.convert(schema, "input", `${route.operationId}_${name}`),
    })),
  ];
  const body = route.request?.body;
  const responses: Record<string, JsonSchema> = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    responses[status] = {
      description: spec.description,
      ...(spec.content && {
        content: Object.fromEntries(
          Object.entries(spec.content).map(([mediaType, schema]) => [
            mediaType,
            schema
              ? { schema: components.convert(schema, "output", `${route.operationId}_${status}`) }
              : {},
          ]),
        ),
      }),
    };
  }
  const errorRef = components.convert(ErrorOutput, "output", "ErrorOutput");
  const errors = new Set([
    ...route.errors,
    500,
    ...(route.auth && bearer ? [401] : []),
    ...(route.hostCheck ? [403] : []),
    ...(route.auth && options.rateLimit ? [429] : []),
  ]);
  for (const status of [...errors].sort((a, b) => a - b)) {
    responses[String(status)] = {
      description: ERROR_DESCRIPTIONS[status] ?? "Error.",
      ...(status === 401 && {
        headers: { "WWW-Authenticate": { schema: { type: "string" } } },
      }),
      ...(status === 429 && {
        headers: { "Retry-After": { schema: { type: "integer" } } },
      }),
      content: { "application/json": { schema: errorRef } },
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description && { description: route.description }),
    tags: route.tags,
    ...(parameters.length > 0 && { parameters }),
    ...(body && {
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: components.convert(body, "input", `${route.operationId}_body`),
          },
        },
      },
    }),
    responses,
    ...(route.auth && bearer && { security: [{ bearerAuth: [] }] }),
  };
}

export interface OpenApiOptions {
  /** Whether an API key is configured: declares the bearer scheme on the routes needing it. */
  bearerAuth: boolean;
  /** Whether requests are rate-limited: declares the 429 answer on the routes it applies to. */
  rateLimit?: boolean;
}

export function buildOpenApiDocument(
  routes: readonly RouteSpec[],
  options: OpenApiOptions,
): JsonSchema {
  const components = new Components();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    // MCP accepts any method, but clients only ever start with POST.
    const method = route.method === "all" ? "post" : route.method;
    paths[route.path] ??= {};
    paths[route.path]![method] = operation(route, components, options);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "hindsight",
      version: VERSION,
      description: "Long-term memory for LLM agents: REST API. MCP is served at /mcp.",
      license: { name: "MIT", identifier: "MIT" },
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    tags: [
      { name: "memories", description: "Store, recall, summarise and forget memories." },
      {
        name: "sharing",
        description: "Memory shared across agents: groups, source trust, quarantine and review.",
      },
      { name: "mcp", description: "Model Context Protocol over Streamable HTTP." },
      { name: "operations", description: "Health, metrics and this document." },
    ],
    paths,
    components: {
      schemas: components.schemas,
      ...(options.bearerAuth && {
        securitySchemes: {
          bearerAuth: {
            type: "http",
            scheme: "bearer",
            description: "The key set in HINDSIGHT_API_KEY when the server started.",
          },
        },
      }),
    },
  };
}
