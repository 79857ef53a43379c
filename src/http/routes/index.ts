/** Every route of the app, in the order the OpenAPI document lists them. */
import type { RouteSpec } from "../route.js";
import { healthRoute } from "./health.js";
import { mcpRoute } from "./mcp.js";
import { metricsRoute } from "./metrics.js";
import { openapiRoute } from "./openapi.js";
import { OPERATION_ROUTES } from "./operations.js";

export const ROUTES: readonly RouteSpec[] = [
  ...OPERATION_ROUTES,
  mcpRoute,
  healthRoute,
  metricsRoute,
  openapiRoute,
];
