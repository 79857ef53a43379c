/** Every route of the app, in the order the OpenAPI document lists them. */
import type { RouteSpec } from "../route.js";
import { auditRoute } from "./audit.js";
import { storeFactRoute } from "./facts.js";
import { healthRoute } from "./health.js";
import {
  consolidateRoute,
  feedbackRoute,
  historyRoute,
  maintainRoute,
  restoreRoute,
} from "./lifecycle.js";
import { mcpRoute } from "./mcp.js";
import { forgetMemoryRoute, storeMemoryRoute } from "./memories.js";
import { metricsRoute } from "./metrics.js";
import { openapiRoute } from "./openapi.js";
import { recallRoute } from "./recall.js";
import {
  grantRoute,
  groupsRoute,
  quarantineRoute,
  reviewRoute,
  revokeRoute,
  setTrustRoute,
  sourcesRoute,
} from "./sharing.js";
import { statsRoute } from "./stats.js";
import { summarizeRoute } from "./summarize.js";
import {
  workingAppendRoute,
  workingBudgetRoute,
  workingCompressRoute,
  workingEndRoute,
  workingGetRoute,
} from "./working.js";

export const ROUTES: readonly RouteSpec[] = [
  storeMemoryRoute,
  forgetMemoryRoute,
  storeFactRoute,
  recallRoute,
  summarizeRoute,
  statsRoute,
  maintainRoute,
  consolidateRoute,
  feedbackRoute,
  restoreRoute,
  historyRoute,
  auditRoute,
  groupsRoute,
  grantRoute,
  revokeRoute,
  sourcesRoute,
  setTrustRoute,
  quarantineRoute,
  reviewRoute,
  workingAppendRoute,
  workingGetRoute,
  workingBudgetRoute,
  workingCompressRoute,
  workingEndRoute,
  mcpRoute,
  healthRoute,
  metricsRoute,
  openapiRoute,
];
