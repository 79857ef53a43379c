import { RecallOutput, toJson } from "../../core/outputs.js";
import { RecallInput } from "../../core/schemas.js";
import { readJsonObject } from "../body.js";
import { json, type RouteSpec } from "../route.js";

export const recallRoute: RouteSpec = {
  method: "post",
  path: "/v1/recall",
  operationId: "recall",
  summary: "Find the memories most relevant to a query, best first",
  description: "Nothing under the score floor is returned: an empty list means no good match.",
  tags: ["memories"],
  auth: true,
  hostCheck: true,
  request: { body: RecallInput },
  responses: {
    200: { description: "Recalled memories, best first.", content: json(RecallOutput) },
  },
  errors: [400, 413, 503],
  handle: async (c, { memory }) => {
    const result = await memory.recall(await readJsonObject(c));
    return c.json(toJson(result), 200);
  },
};
