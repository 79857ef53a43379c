import { StatsOutput, toJson } from "../../core/outputs.js";
import { json, type RouteSpec } from "../route.js";

export const statsRoute: RouteSpec = {
  method: "get",
  path: "/v1/stats",
  operationId: "stats",
  summary: "Count memories per layer and status; name the store and embedder in use",
  tags: ["memories"],
  auth: true,
  hostCheck: true,
  responses: { 200: { description: "Counts and backends.", content: json(StatsOutput) } },
  errors: [503],
  handle: async (c, { memory }) => c.json(toJson(await memory.stats()), 200),
};
