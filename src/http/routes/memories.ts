/** Episodic memories: store one, forget one. */
import { ForgetOutput, StoreOutput, toJson } from "../../core/outputs.js";
import { ForgetInput, StoreEpisodicInput } from "../../core/schemas.js";
import { readJsonObject } from "../body.js";
import { json, type RouteSpec } from "../route.js";

export const storeMemoryRoute: RouteSpec = {
  method: "post",
  path: "/v1/memories",
  operationId: "storeEpisodic",
  summary: "Store a task interaction as an episodic memory",
  tags: ["memories"],
  auth: true,
  hostCheck: true,
  request: { body: StoreEpisodicInput },
  responses: { 201: { description: "Stored; the memory's id.", content: json(StoreOutput) } },
  errors: [400, 413, 503],
  handle: async (c, { memory }) => {
    const result = await memory.storeEpisodic(await readJsonObject(c));
    return c.json(toJson(result), 201);
  },
};

export const forgetMemoryRoute: RouteSpec = {
  method: "delete",
  path: "/v1/memories/{id}",
  operationId: "forget",
  summary: "Forget a memory of either layer: archive it (soft) or delete it (hard)",
  tags: ["memories"],
  auth: true,
  hostCheck: true,
  request: {
    path: { id: ForgetInput.shape.memory_id },
    query: { mode: ForgetInput.shape.mode },
  },
  responses: { 200: { description: "What was forgotten.", content: json(ForgetOutput) } },
  errors: [400, 404, 503],
  handle: async (c, { memory }) => {
    // Errors name the schema's fields: memory_id for the path id, mode for the query.
    const mode = c.req.query("mode");
    const result = await memory.forget({
      memory_id: c.req.param("id"),
      ...(mode === undefined ? {} : { mode }),
    });
    return c.json(toJson(result), 200);
  },
};
