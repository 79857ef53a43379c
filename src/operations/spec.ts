/**
 * What an operation is, declared once: its schemas, what it does to memory, who may call it, and
 * how each surface reaches it. The REST routes and the OpenAPI document (http/), the MCP tools
 * (mcp/), the CLI commands (cli/), the RPC between processes (multiprocess/), the agent-key policy
 * (tenants/) and the library's types are all derived from these declarations, so a surface
 * cannot silently miss an operation: every field below is required, and "not on this surface"
 * is written as `null`.
 *
 * This layer imports only core, text and zod: it describes the surfaces as data; the adapters
 * (Hono, the MCP SDK, commander) turn the data into routes, tools and commands.
 */
import type { z } from "zod";
import type { MemoryApi, MemoryOperation } from "../core/memory-api.js";

/** What a call's result is, for operation `K`. */
export type ResultOf<K extends MemoryOperation> = Awaited<ReturnType<MemoryApi[K]>>;

/**
 * What the operation does to memory. `read` changes nothing a caller sees (recall's access
 * counts are bookkeeping); `write` adds or changes; `destructive` may remove or hide something.
 */
export type Effect = "read" | "write" | "destructive";

/**
 * What a call with an agent-bound API key (`key:tenant/agent`) may do, and how it is scoped:
 * - `as-agent`: the input's agent_id is set to the key's agent (another agent is refused);
 * - `as-agent-write`: that, and an id the writer chose is mapped into the agent's own id space;
 * - `own` / `visible`: the memory named by `memory_id` must be the agent's own / one it may see;
 * - `operator`: refused — `needs` says what the operator's key is needed for;
 * - `open`: the call carries no data (health checks, the schema version);
 * - `custom`: tenants/agent-scope.ts implements the scoping by name (the compiler checks it does).
 */
export type AgentRule =
  | { kind: "as-agent" | "as-agent-write" | "own" | "visible" | "open" | "custom" }
  | { kind: "operator"; needs: string };

export interface HttpBinding {
  method: "get" | "post" | "patch" | "delete";
  /** OpenAPI path template, e.g. `/v1/memories/{id}`. */
  path: string;
  /** The OpenAPI operationId when it is not the operation's name (a second route of it). */
  operationId?: string;
  /** Overrides the operation's summary / description for this route. */
  summary?: string;
  description?: string;
  tag: string;
  /** Path parameter → the input field it fills (errors then name the field). */
  params?: Record<string, string>;
  /** Input fields read from the query string; other input fields are refused there. */
  query?: readonly string[];
  /** Whether the rest of the input is a JSON body (default: yes for POST, no otherwise). */
  body?: boolean;
  /** Body fields this route requires although the operation does not. */
  requires?: readonly string[];
  /** The success status and what its body is. */
  status: 200 | 201;
  returns: string;
  /** Statuses answered with ErrorOutput, besides 500, 401 (auth) and 403 (host check). */
  errors: readonly number[];
}

export interface McpBinding<R> {
  /** The tool's name, e.g. `memory_recall`. */
  name: string;
  title: string;
  /** Tells the model when to call the tool, not only what it does. */
  description: string;
  /**
   * Whether calling it twice with the same arguments leaves the same state (MCP's
   * idempotentHint); read-only tools are idempotent by nature.
   */
  idempotent: boolean;
  /** What the model reads. */
  text(result: R): string;
}

/** One command-line flag, for one input field. */
export interface CliFlag {
  /** commander's syntax: `--top-k <n>`, or `--hard` for a flag without a value. */
  flag: string;
  help: string;
  default?: string;
  /** For a flag without a value: the field's value when it is given (`--hard` → mode "hard"). */
  value?: unknown;
  /** `-` reads the value from standard input. */
  stdin?: boolean;
  /** May be given several times (`--tag a --tag b`); each value may be a comma list too. */
  repeatable?: boolean;
}

export interface CliCommand<R> {
  /** Words after `hindsight`: `recall`, `working append`, `share confirm`. */
  command: string;
  alias?: string;
  description: string;
  /**
   * Positional arguments in order: the input field, commander's syntax (`<id>`, `[group]`,
   * `<agent...>`) and help.
   */
  args?: readonly { field: string; syntax: string; help: string }[];
  /** Options by the input field they fill; several flags may fill one field (`--useful`). */
  options?: Record<string, CliFlag | readonly CliFlag[]>;
  /** Input fields the command itself decides (`share confirm` → decision "confirm"). */
  fixed?: Record<string, unknown>;
  /**
   * What a person reads on stdout (`--json` prints the result itself), given the result and
   * the input the command sent.
   */
  human(result: R, input: Readonly<Record<string, unknown>>): string;
  /** A line for stderr (info level) besides the result, when there is something to say. */
  notice?(result: R): string | undefined;
}

export interface OperationSpec<K extends MemoryOperation> {
  /** One line: what it does. The HTTP summary, and the start of help texts. */
  summary: string;
  /** More, when the summary does not say enough (HTTP description). */
  description?: string;
  /**
   * The schema that validates the input — the service validates with it, the CLI checks with
   * it before opening anything, the library types its argument with it — or null when the
   * operation takes no input object.
   */
  input: z.ZodObject | null;
  /** The JSON of the result (dates as ISO 8601): MCP's output schema and the REST response. */
  output: z.ZodType | null;
  effect: Effect;
  /**
   * It embeds text (what it stores, what it looks for): a one-shot command that calls it starts
   * loading the model while the store opens; others never load it.
   */
  embeds?: true;
  /**
   * It may walk the whole store (maintenance, consolidation, migrations): a one-shot command
   * that calls it keeps V8's optimising WebAssembly compiler, since it runs long enough for
   * the optimised code to pay (cli/wasm-tiering). Others compile baseline only.
   */
  wholeStore?: true;
  agent: AgentRule;
  http: readonly HttpBinding[] | null;
  mcp: McpBinding<ResultOf<K>> | null;
  cli: readonly CliCommand<ResultOf<K>>[] | null;
}

/**
 * Declares operations: each key must be a MemoryApi operation, and each declaration is checked
 * against that operation's own result type. The declarations keep their exact types (the input
 * schemas type the library's arguments).
 */
export function defineOperations<
  T extends { [P in keyof T]: P extends MemoryOperation ? OperationSpec<P> : never },
>(specs: T): T {
  return specs;
}
