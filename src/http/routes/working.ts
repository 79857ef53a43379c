/** Working memory: append to a session, read it within budget, compress it, end it. */
import type { Context } from "hono";
import { invalidInput } from "../../core/errors.js";
import { toJson } from "../../core/outputs.js";
import {
  SessionId,
  WorkingAppendInput,
  WorkingAppendOutput,
  WorkingContextOutput,
  WorkingEndInput,
  WorkingEndOutput,
  WorkingGetInput,
} from "../../core/working/schemas.js";
import { readJsonObject } from "../body.js";
import { json, type RouteSpec } from "../route.js";

const path = { session: SessionId };
const common = { tags: ["working memory"], auth: true, hostCheck: true };

/** `?agent_id=`: whose session (an agent-bound key sets it whatever is given). */
function agentQuery(c: Context): { agent_id?: string } {
  const agent = c.req.query("agent_id");
  return agent === undefined ? {} : { agent_id: agent };
}

/** The body's fields with the session from the path; errors name the schema's session_id. */
async function withSession(c: Context): Promise<Record<string, unknown>> {
  return { ...(await readJsonObject(c)), session_id: c.req.param("session") };
}

export const workingAppendRoute: RouteSpec = {
  ...common,
  method: "post",
  path: "/v1/working/{session}/items",
  operationId: "workingAppend",
  summary: "Append an item to a working-memory session",
  description:
    "Creates the session on first use. When the item takes the session over its token budget, " +
    "everything but the goal, the latest instruction and open tool calls is compressed.",
  request: { path, body: WorkingAppendInput.omit({ session_id: true }) },
  responses: {
    201: { description: "Appended; its sequence number.", content: json(WorkingAppendOutput) },
  },
  errors: [400, 413, 503],
  handle: async (c, { memory }) => {
    const result = await memory.workingAppend(await withSession(c));
    return c.json(toJson(result), 201);
  },
};

export const workingGetRoute: RouteSpec = {
  ...common,
  method: "get",
  path: "/v1/working/{session}",
  operationId: "workingGet",
  summary: "The session's context within its token budget, ready to paste into a prompt",
  description:
    "Reads only. To give the session another budget (which may compress it), POST it to /v1/working/{session}/budget.",
  request: { path, query: { agent_id: WorkingGetInput.shape.agent_id } },
  responses: { 200: { description: "The session.", content: json(WorkingContextOutput) } },
  errors: [400, 404, 503],
  handle: async (c, { memory }) => {
    // A GET never writes (it is also what a cross-site page can make a browser send).
    if (c.req.query("budget") !== undefined) {
      throw invalidInput(
        "budget",
        "GET only reads; set a session's budget with POST /v1/working/{session}/budget",
      );
    }
    const result = await memory.workingGet({
      session_id: c.req.param("session"),
      ...agentQuery(c),
    });
    return c.json(toJson(result), 200);
  },
};

export const workingBudgetRoute: RouteSpec = {
  ...common,
  method: "post",
  path: "/v1/working/{session}/budget",
  operationId: "workingSetBudget",
  summary: "Give the session a token budget; answers its context within it",
  description:
    "The budget becomes the session's own; when the session is over it, everything but the " +
    "goal, the latest instruction and open tool calls is compressed.",
  request: {
    path,
    body: WorkingGetInput.omit({ session_id: true }).required({ budget: true }),
  },
  responses: {
    200: { description: "The session within its new budget.", content: json(WorkingContextOutput) },
  },
  errors: [400, 404, 503],
  handle: async (c, { memory }) => {
    const body = await withSession(c);
    if (body.budget === undefined) throw invalidInput("budget", "is required");
    return c.json(toJson(await memory.workingGet(body)), 200);
  },
};

export const workingCompressRoute: RouteSpec = {
  ...common,
  method: "post",
  path: "/v1/working/{session}/compress",
  operationId: "workingCompress",
  summary: "Compress the session now into its four-part summary",
  request: { path, query: { agent_id: WorkingGetInput.shape.agent_id } },
  responses: {
    200: { description: "The compressed session.", content: json(WorkingContextOutput) },
  },
  errors: [400, 404, 503],
  handle: async (c, { memory }) => {
    const result = await memory.workingCompress({
      session_id: c.req.param("session"),
      ...agentQuery(c),
    });
    return c.json(toJson(result), 200);
  },
};

export const workingEndRoute: RouteSpec = {
  ...common,
  method: "post",
  path: "/v1/working/{session}/end",
  operationId: "workingEnd",
  summary: "End the session: promote it to an episodic memory and clear it",
  request: { path, body: WorkingEndInput.omit({ session_id: true }) },
  responses: {
    201: { description: "The episodic memory it became.", content: json(WorkingEndOutput) },
  },
  errors: [400, 404, 413, 503],
  handle: async (c, { memory }) => {
    const result = await memory.workingEnd(await withSession(c));
    return c.json(toJson(result), 201);
  },
};
