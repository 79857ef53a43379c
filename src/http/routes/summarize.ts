import { SummarizeOutput, toJson } from "../../core/outputs.js";
import { SummarizeInput } from "../../core/schemas.js";
import { readJsonObject } from "../body.js";
import { json, type RouteSpec } from "../route.js";

export const summarizeRoute: RouteSpec = {
  method: "post",
  path: "/v1/summarize",
  operationId: "summarize",
  summary: "Summarise memories, given by id or recalled for a query, within a token budget",
  description: "Give exactly one of memory_ids or query_text.",
  tags: ["memories"],
  auth: true,
  hostCheck: true,
  request: { body: SummarizeInput },
  responses: { 200: { description: "The summary.", content: json(SummarizeOutput) } },
  errors: [400, 404, 413, 503],
  handle: async (c, { memory }) => {
    const result = await memory.summarize(await readJsonObject(c));
    return c.json(toJson(result), 200);
  },
};
