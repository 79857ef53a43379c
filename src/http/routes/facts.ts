/** Semantic memories: rules and facts. */
import { StoreOutput, toJson } from "../../core/outputs.js";
import { StoreSemanticInput } from "../../core/schemas.js";
import { readJsonObject } from "../body.js";
import { json, type RouteSpec } from "../route.js";

export const storeFactRoute: RouteSpec = {
  method: "post",
  path: "/v1/facts",
  operationId: "storeSemantic",
  summary: "Store a rule or fact as a semantic memory",
  tags: ["memories"],
  auth: true,
  hostCheck: true,
  request: { body: StoreSemanticInput },
  responses: { 201: { description: "Stored; the memory's id.", content: json(StoreOutput) } },
  errors: [400, 413, 503],
  handle: async (c, { memory }) => {
    const result = await memory.storeSemantic(await readJsonObject(c));
    return c.json(toJson(result), 201);
  },
};
