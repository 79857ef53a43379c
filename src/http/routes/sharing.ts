/** Shared memory: groups of agents, source trust, the quarantine and its reviews. */
import {
  GroupOutput,
  GroupsOutput,
  QuarantineOutput,
  ReviewOutput,
  SourcesOutput,
  SourceTrustOutput,
  toJson,
} from "../../core/outputs.js";
import {
  GrantInput,
  GroupsInput,
  QuarantineInput,
  ReviewInput,
  SetTrustInput,
} from "../../core/sharing/schemas.js";
import { readJsonObject } from "../body.js";
import { numberQuery } from "../query.js";
import { json, type RouteSpec } from "../route.js";

const TAGS = ["sharing"];

function membershipRoute(action: "grant" | "revoke"): RouteSpec {
  return {
    method: "post",
    path: `/v1/groups/{group}/${action}`,
    operationId: action,
    summary:
      action === "grant"
        ? "Add agents to a group: they recall its confirmed knowledge and may write to it"
        : "Take agents out of a group",
    tags: TAGS,
    auth: true,
    hostCheck: true,
    request: {
      path: { group: GrantInput.shape.group },
      body: GrantInput.omit({ group: true }),
    },
    responses: { 200: { description: "The group after the change.", content: json(GroupOutput) } },
    errors: [400, 413, 503],
    handle: async (c, { memory }) => {
      const request = { ...(await readJsonObject(c)), group: c.req.param("group") };
      const group = action === "grant" ? await memory.grant(request) : await memory.revoke(request);
      return c.json(toJson(group), 200);
    },
  };
}

export const grantRoute = membershipRoute("grant");
export const revokeRoute = membershipRoute("revoke");

export const groupsRoute: RouteSpec = {
  method: "get",
  path: "/v1/groups",
  operationId: "groups",
  summary: "The groups of agents and their members",
  tags: TAGS,
  auth: true,
  hostCheck: true,
  request: { query: { group: GroupsInput.shape.group } },
  responses: { 200: { description: "Groups by name.", content: json(GroupsOutput) } },
  errors: [400, 503],
  handle: async (c, { memory }) => c.json(toJson(await memory.groups(c.req.query())), 200),
};

export const sourcesRoute: RouteSpec = {
  method: "get",
  path: "/v1/sources",
  operationId: "sources",
  summary: "The sources with a trust level, and the default trust of the others",
  tags: TAGS,
  auth: true,
  hostCheck: true,
  responses: { 200: { description: "Sources by name.", content: json(SourcesOutput) } },
  errors: [503],
  handle: async (c, { memory }) => c.json(toJson(await memory.sources()), 200),
};

export const setTrustRoute: RouteSpec = {
  method: "post",
  path: "/v1/sources/{source}",
  operationId: "setTrust",
  summary: "Set how far a source is trusted: blocked, low, normal or high",
  description:
    "blocked: its writes to shared memory are refused (403). low: they are quarantined — " +
    "recalled only by the writing agent — until a reviewer confirms them. normal, high: the " +
    "group recalls them at once. Shared knowledge from a source never merges into or " +
    "supersedes knowledge from a more trusted one.",
  tags: TAGS,
  auth: true,
  hostCheck: true,
  request: {
    path: { source: SetTrustInput.shape.source },
    body: SetTrustInput.omit({ source: true }),
  },
  responses: { 200: { description: "The source's trust.", content: json(SourceTrustOutput) } },
  errors: [400, 413, 503],
  handle: async (c, { memory }) => {
    const request = { ...(await readJsonObject(c)), source: c.req.param("source") };
    return c.json(toJson(await memory.setTrust(request)), 200);
  },
};

export const quarantineRoute: RouteSpec = {
  method: "get",
  path: "/v1/quarantine",
  operationId: "quarantined",
  summary: "Shared memories from low-trust sources waiting for review, oldest first",
  tags: TAGS,
  auth: true,
  hostCheck: true,
  request: { query: { group: QuarantineInput.shape.group, limit: QuarantineInput.shape.limit } },
  responses: { 200: { description: "Quarantined memories.", content: json(QuarantineOutput) } },
  errors: [400, 503],
  handle: async (c, { memory }) => {
    const result = await memory.quarantined({ ...c.req.query(), ...numberQuery(c, "limit") });
    return c.json(toJson(result), 200);
  },
};

export const reviewRoute: RouteSpec = {
  method: "post",
  path: "/v1/memories/{id}/review",
  operationId: "review",
  summary: "Confirm a shared memory for its group, or reject it",
  description:
    "confirm: the group recalls it from now on. reject: nobody recalls it; it is archived " +
    "with its history. Both are recorded in the audit log.",
  tags: TAGS,
  auth: true,
  hostCheck: true,
  request: {
    path: { id: ReviewInput.shape.memory_id },
    body: ReviewInput.omit({ memory_id: true }),
  },
  responses: { 200: { description: "The review's outcome.", content: json(ReviewOutput) } },
  errors: [400, 404, 413, 503],
  handle: async (c, { memory }) => {
    const request = { ...(await readJsonObject(c)), memory_id: c.req.param("id") };
    return c.json(toJson(await memory.review(request)), 200);
  },
};
