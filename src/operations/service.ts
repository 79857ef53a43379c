/** The service itself: whether it answers, and its schema version. */
import { defineOperations } from "./spec.js";

export const serviceOperations = defineOperations({
  ping: {
    summary: "Resolves when the store answers; for health checks",
    // GET /health answers it, with the service's state (http/routes/health.ts).
    input: null,
    output: null,
    effect: "read",
    agent: { kind: "open" },
    http: null,
    mcp: null,
    cli: null,
  },

  migrate: {
    summary: "Apply pending database migrations; report the schema version",
    input: null,
    output: null,
    effect: "write",
    wholeStore: true,
    agent: { kind: "open" },
    // Opening a store applies its migrations; a server has already opened it.
    http: null,
    mcp: null,
    cli: [
      {
        command: "migrate",
        description: "apply pending database migrations (first use applies them too)",
        human: (result) =>
          result.applied.length > 0
            ? `applied migrations ${result.applied.join(", ")}; schema version ${result.current}`
            : `schema is up to date (version ${result.current})`,
      },
    ],
  },
});
