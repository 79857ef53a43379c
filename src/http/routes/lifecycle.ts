/** The memory lifecycle: maintenance, consolidation, feedback, restore and history. */
import {
  ConsolidateOutput,
  FeedbackOutput,
  HistoryOutput,
  MaintainOutput,
  RestoreOutput,
  toJson,
} from "../../core/outputs.js";
import {
  ConsolidateInput,
  FeedbackInput,
  MaintainInput,
  MemoryIdInput,
} from "../../core/schemas.js";
import { readJsonObject } from "../body.js";
import { json, type RouteSpec } from "../route.js";

export const maintainRoute: RouteSpec = {
  method: "post",
  path: "/v1/maintain",
  operationId: "maintain",
  summary: "Apply decay: archive memories that faded, reactivate those recalled again",
  description:
    "decay_score = confidence · exp(−λ · days since last access) + α · ln(1 + access_count). " +
    "Below the threshold a memory moves to cold storage (archived, never deleted). `now` " +
    "simulates another moment; `{}` runs it now.",
  tags: ["lifecycle"],
  auth: true,
  hostCheck: true,
  request: { body: MaintainInput },
  responses: { 200: { description: "What changed.", content: json(MaintainOutput) } },
  errors: [400, 413, 503],
  handle: async (c, { memory }) =>
    c.json(toJson(await memory.maintain(await readJsonObject(c))), 200),
};

export const consolidateRoute: RouteSpec = {
  method: "post",
  path: "/v1/consolidate",
  operationId: "consolidate",
  summary: "Draw semantic patterns from task types with enough new episodes",
  description:
    "With a language model it extracts 1–3 rule/advice patterns per task type; without one, " +
    "a statistical summary (outcome rates, recurring terms). Patterns cite their episodes and " +
    "are deduplicated against existing knowledge. `{}` considers every task type.",
  tags: ["lifecycle"],
  auth: true,
  hostCheck: true,
  request: { body: ConsolidateInput },
  responses: { 200: { description: "What was created.", content: json(ConsolidateOutput) } },
  errors: [400, 413, 503],
  handle: async (c, { memory }) =>
    c.json(toJson(await memory.consolidate(await readJsonObject(c))), 200),
};

export const feedbackRoute: RouteSpec = {
  method: "post",
  path: "/v1/feedback",
  operationId: "feedback",
  summary: "Report whether a recalled memory was useful: its confidence rises or falls",
  tags: ["lifecycle"],
  auth: true,
  hostCheck: true,
  request: { body: FeedbackInput },
  responses: { 200: { description: "The new confidence.", content: json(FeedbackOutput) } },
  errors: [400, 404, 413, 503],
  handle: async (c, { memory }) =>
    c.json(toJson(await memory.feedback(await readJsonObject(c))), 200),
};

export const restoreRoute: RouteSpec = {
  method: "post",
  path: "/v1/memories/{id}/restore",
  operationId: "restore",
  summary: "Bring an archived memory back from cold storage",
  tags: ["lifecycle"],
  auth: true,
  hostCheck: true,
  request: { path: { id: MemoryIdInput.shape.memory_id } },
  responses: { 200: { description: "Active again.", content: json(RestoreOutput) } },
  errors: [400, 404, 503],
  handle: async (c, { memory }) =>
    c.json(toJson(await memory.restore({ memory_id: c.req.param("id") })), 200),
};

export const historyRoute: RouteSpec = {
  method: "get",
  path: "/v1/memories/{id}/history",
  operationId: "history",
  summary: "What happened to a memory, when and why",
  description:
    "Creation, merges, superseding, archiving, reactivation, restore, feedback and " +
    "consolidation, oldest first, with the episodes a semantic memory was drawn from.",
  tags: ["lifecycle"],
  auth: true,
  hostCheck: true,
  request: { path: { id: MemoryIdInput.shape.memory_id } },
  responses: { 200: { description: "The memory's history.", content: json(HistoryOutput) } },
  errors: [400, 404, 503],
  handle: async (c, { memory }) =>
    c.json(toJson(await memory.history({ memory_id: c.req.param("id") })), 200),
};
