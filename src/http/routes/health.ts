import { z } from "zod";
import { errorResponse } from "../errors.js";
import { json, type RouteSpec } from "../route.js";

const HealthOutput = z.object({ status: z.literal("ok") });

export const healthRoute: RouteSpec = {
  method: "get",
  path: "/health",
  operationId: "health",
  summary: "Whether the memory store answers",
  description: "Open even when an API key is configured, for load balancers and orchestrators.",
  tags: ["operations"],
  auth: false,
  hostCheck: false,
  responses: { 200: { description: "The store answers.", content: json(HealthOutput) } },
  errors: [503],
  handle: async (c, { memory }) => {
    try {
      await memory.ping();
    } catch {
      // The reason may name the database host; it belongs in the log of a failing request,
      // not on an unauthenticated endpoint.
      return errorResponse(c, "STORAGE_FAILED", "the memory store is not reachable");
    }
    return c.json({ status: "ok" }, 200);
  },
};
