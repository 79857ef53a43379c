import { z } from "zod";
import { errorResponse } from "../errors.js";
import { json, type RouteSpec } from "../route.js";

const HealthOutput = z.object({ status: z.literal("ok") });

/** How long /health waits for the store before reporting it down. */
export const HEALTH_TIMEOUT_MS = 3000;

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
    // An orchestrator needs an answer, not a hung probe: a store that does not answer within
    // HEALTH_TIMEOUT_MS is reported down, whatever the database timeout is.
    let timer: NodeJS.Timeout | undefined;
    const answered = await Promise.race([
      memory.ping().then(
        () => "ok" as const,
        () => "failed" as const,
      ),
      new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), HEALTH_TIMEOUT_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    if (answered === "timeout") {
      return errorResponse(
        c,
        "STORAGE_FAILED",
        `the memory store did not answer within ${HEALTH_TIMEOUT_MS / 1000} s`,
      );
    }
    if (answered === "failed") {
      // The reason may name the database host; it belongs in the log of a failing request,
      // not on an unauthenticated endpoint.
      return errorResponse(c, "STORAGE_FAILED", "the memory store is not reachable");
    }
    return c.json({ status: "ok" }, 200);
  },
};
