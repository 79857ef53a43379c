import { StatsOutput, toJson } from "../../core/outputs.js";
import { StatsInput } from "../../core/schemas.js";
import { json, type RouteSpec } from "../route.js";

export const statsRoute: RouteSpec = {
  method: "get",
  path: "/v1/stats",
  operationId: "stats",
  summary: "Count memories per layer and status; name the store and embedder in use",
  tags: ["memories"],
  auth: true,
  hostCheck: true,
  request: { query: { agent_id: StatsInput.shape.agent_id } },
  responses: { 200: { description: "Counts and backends.", content: json(StatsOutput) } },
  errors: [400, 503],
  handle: async (c, { memory }) => {
    const agent = c.req.query("agent_id");
    return c.json(toJson(await memory.stats(agent === undefined ? {} : { agent_id: agent })), 200);
  },
};
