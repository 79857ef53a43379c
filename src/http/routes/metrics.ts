import { z } from "zod";
import { permissionDenied } from "../../core/sharing/sharing.js";
import { DEFAULT_TENANT } from "../../tenants/tenant.js";
import type { RouteSpec } from "../route.js";

export const metricsRoute: RouteSpec = {
  method: "get",
  path: "/metrics",
  operationId: "metrics",
  summary: "Prometheus metrics: requests, latencies and memory counts",
  tags: ["operations"],
  auth: true,
  // Behind the Host check like the API: a page on another site could otherwise read it
  // through DNS rebinding. Scrapers address it by an allowed name (HINDSIGHT_ALLOWED_HOSTS).
  hostCheck: true,
  responses: {
    200: {
      description: "Prometheus text exposition format.",
      content: { "text/plain": z.string() },
    },
  },
  errors: [403],
  handle: async (c, { metrics }) => {
    // The counters are the whole server's, every tenant's requests included: an operator key
    // of the default tenant reads them, no tenant's or agent's key does.
    const tenant = c.get("tenant") as string | undefined;
    if ((tenant !== undefined && tenant !== DEFAULT_TENANT) || c.get("agent") !== undefined) {
      throw permissionDenied(
        "Authorization",
        "metrics are the whole server's: they need an operator key of the default tenant",
      );
    }
    const text = await metrics.registry.metrics();
    return c.body(text, 200, { "Content-Type": metrics.registry.contentType });
  },
};
