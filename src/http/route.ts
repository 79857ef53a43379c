/**
 * A route is declared once, as data: the app registers it and the OpenAPI document is
 * generated from the same declaration, so the two cannot drift apart.
 */
import type { Context } from "hono";
import type { z } from "zod";
import type { MemoryApi } from "../core/memory-api.js";
import type { HttpMetrics } from "./metrics.js";

export interface RouteDeps {
  memory: MemoryApi;
  metrics: HttpMetrics;
  /** The OpenAPI document of this app. */
  openapi: () => unknown;
  mcp: (request: Request) => Promise<Response>;
}

export interface ResponseSpec {
  description: string;
  /** Media type → schema of the body; a missing schema means any content. */
  content?: Record<string, z.ZodType | undefined>;
}

export interface RouteSpec {
  /** `all` passes every method to the handler (MCP decides what it accepts). */
  method: "get" | "post" | "patch" | "delete" | "all";
  /** OpenAPI path template: `/v1/memories/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Needs the API key when one is configured. */
  auth: boolean;
  /** Checks Host and Origin against DNS rebinding and cross-site requests. */
  hostCheck: boolean;
  request?: {
    /** A JSON body. */
    body?: z.ZodType;
    path?: Record<string, z.ZodType>;
    query?: Record<string, z.ZodType>;
  };
  /** Responses by status, other than ErrorOutput ones. */
  responses: Record<number, ResponseSpec>;
  /**
   * Statuses answered with ErrorOutput, besides 500 (any route), 401 (auth) and 403 (hostCheck).
   */
  errors: number[];
  handle: (c: Context, deps: RouteDeps) => Promise<Response> | Response;
}

/** Hono's path syntax for an OpenAPI template. */
export function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}

export const json = (schema: z.ZodType) => ({ "application/json": schema });
