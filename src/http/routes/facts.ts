/** Semantic memories: rules and facts. */
import { StoreSemanticOutput, toJson } from "../../core/outputs.js";
import { StoreSemanticInput } from "../../core/schemas.js";
import { readJsonObject } from "../body.js";
import { json, type RouteSpec } from "../route.js";

export const storeFactRoute: RouteSpec = {
  method: "post",
  path: "/v1/facts",
  operationId: "storeSemantic",
  summary: "Store a rule or fact as a semantic memory",
  description:
    "With `shared_group` it is shared with that group of agents: `source` is required, the " +
    "writing agent must be a member (403 otherwise), and a write from a low-trust source is " +
    "quarantined until reviewed (`review_status` says so).",
  tags: ["memories"],
  auth: true,
  hostCheck: true,
  request: { body: StoreSemanticInput },
  responses: {
    201: {
      description:
        "Stored; the id of the memory that holds it, which is an existing one when it was merged into a near-duplicate.",
      content: json(StoreSemanticOutput),
    },
  },
  errors: [400, 403, 404, 413, 503],
  handle: async (c, { memory }) => {
    const result = await memory.storeSemantic(await readJsonObject(c));
    return c.json(toJson(result), 201);
  },
};
