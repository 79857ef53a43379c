import { z } from "zod";
import type { RouteSpec } from "../route.js";

export const metricsRoute: RouteSpec = {
  method: "get",
  path: "/metrics",
  operationId: "metrics",
  summary: "Prometheus metrics: requests, latencies and memory counts",
  tags: ["operations"],
  auth: true,
  hostCheck: false,
  responses: {
    200: {
      description: "Prometheus text exposition format.",
      content: { "text/plain": z.string() },
    },
  },
  errors: [],
  handle: async (c, { metrics }) => {
    const text = await metrics.registry.metrics();
    return c.body(text, 200, { "Content-Type": metrics.registry.contentType });
  },
};
