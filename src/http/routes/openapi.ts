import type { RouteSpec } from "../route.js";

export const openapiRoute: RouteSpec = {
  method: "get",
  path: "/openapi.json",
  operationId: "openapi",
  summary: "This OpenAPI 3.1 document",
  tags: ["operations"],
  auth: false,
  hostCheck: false,
  responses: {
    200: { description: "The OpenAPI document.", content: { "application/json": undefined } },
  },
  errors: [],
  handle: (c, { openapi }) => c.json(openapi() as object, 200),
};
