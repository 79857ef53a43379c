/** The audit log of destructive operations. */
import { AuditOutput, toJson } from "../../core/outputs.js";
import { AuditInput } from "../../core/schemas.js";
import { numberQuery } from "../query.js";
import { json, type RouteSpec } from "../route.js";

export const auditRoute: RouteSpec = {
  method: "get",
  path: "/v1/audit",
  operationId: "audit",
  summary: "The audit log: forgets, deletes, merges, supersedes and restores, newest first",
  description:
    "Entries hold ids, times, reasons and structural details, never memory content, so a " +
    "hard-deleted memory leaves only the record that it was deleted.",
  tags: ["lifecycle"],
  auth: true,
  hostCheck: true,
  request: {
    query: {
      since: AuditInput.shape.since,
      until: AuditInput.shape.until,
      operation: AuditInput.shape.operation,
      memory_id: AuditInput.shape.memory_id,
      limit: AuditInput.shape.limit,
    },
  },
  responses: { 200: { description: "Audit entries.", content: json(AuditOutput) } },
  errors: [400, 503],
  handle: async (c, { memory }) => {
    const result = await memory.audit({ ...c.req.query(), ...numberQuery(c, "limit") });
    return c.json(toJson(result), 200);
  },
};
