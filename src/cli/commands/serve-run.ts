/**
 * `hindsight serve`: the REST API and MCP (Streamable HTTP) on one port, until SIGINT/SIGTERM.
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { ErrorCode, HindsightError, invalidInput } from "../../core/errors.js";
import { startLifecycleSchedule } from "../../core/lifecycle/schedule.js";
import { createHttpApp } from "../../http/app.js";
import { hostnameOf, LOOPBACK_HOSTS } from "../../http/origin.js";
import { listen, type RunningServer } from "../../http/server.js";
import { apiKeysFromEnv } from "../../tenants/api-keys.js";
import { TenantMemories } from "../../tenants/memories.js";
import { DEFAULT_TENANT } from "../../tenants/tenant.js";
import { withHindsight } from "../context.js";
import { reportError } from "../output.js";
import { csv } from "../parse.js";
import { nextSignal } from "../signals.js";

const FLAGS = { port: "--port", host: "--host" };

export interface ServeOptions {
  host: string;
  port: string;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || port > 65_535) {
    throw invalidInput("port", "must be an integer from 0 to 65535 (0: any free port)");
  }
  return port;
}

/** HINDSIGHT_RATE_LIMIT: requests per minute per client; empty or 0 turns the limit off. */
function parseRateLimit(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "" || value.trim() === "0") return undefined;
  const limit = Number(value);
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new HindsightError(
      ErrorCode.CONFIG_INVALID,
      `HINDSIGHT_RATE_LIMIT: '${value}' is not a whole number of requests per minute`,
      { field: "HINDSIGHT_RATE_LIMIT" },
    );
  }
  return limit;
}

/** Node's bind errors in words a person can act on. */
function bindError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  const message =
    code === "EADDRINUSE"
      ? `port ${port} is already in use; pick another with --port`
      : code === "EACCES"
        ? `no permission to listen on port ${port}; pick one above 1023 with --port`
        : code === "EADDRNOTAVAIL" || code === "ENOTFOUND"
          ? `cannot listen on host ${host}: no such local address; check --host`
          : undefined;
  if (message === undefined) return error;
  const field = code === "EADDRINUSE" || code === "EACCES" ? "port" : "host";
  return new HindsightError(ErrorCode.CONFIG_INVALID, message, { field, cause: error });
}

/** `hindsight serve`, loaded when the command runs: no other command pays for HTTP and MCP. */
export async function runServe(options: ServeOptions, command: Command): Promise<void> {
  let port: number;
  try {
    // Before opening the store: a typo should not wait for the database.
    port = parsePort(options.port);
  } catch (error) {
    process.exitCode = reportError(error, {}, FLAGS);
    return;
  }
  await withHindsight(
    command,
    {},
    FLAGS,
    async (memory, logger) => {
      const env = process.env;
      const apiKeys = apiKeysFromEnv(env, (path) => readFileSync(path, "utf8"));
      const idle = env.HINDSIGHT_TENANT_IDLE_MS;
      const idleMs = idle === undefined ? undefined : Number(idle);
      if (idleMs !== undefined && !(Number.isInteger(idleMs) && idleMs >= 0)) {
        throw new HindsightError(
          ErrorCode.CONFIG_INVALID,
          `HINDSIGHT_TENANT_IDLE_MS: '${idle}' is not a whole number of milliseconds`,
          { field: "HINDSIGHT_TENANT_IDLE_MS" },
        );
      }
      const tenants = new TenantMemories(
        memory.config,
        memory,
        { logger },
        idleMs === undefined ? {} : { idleMs },
      );
      const rateLimitPerMinute = parseRateLimit(env.HINDSIGHT_RATE_LIMIT);
      const app = createHttpApp(memory, {
        ...(apiKeys === undefined
          ? {}
          : { apiKeys, tenantMemory: (tenant) => tenants.get(tenant) }),
        ...(rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute }),
        allowedHosts: [options.host, ...(csv(env.HINDSIGHT_ALLOWED_HOSTS) ?? [])],
        allowedOrigins: csv(env.HINDSIGHT_ALLOWED_ORIGINS) ?? [],
        logger,
      });
      let server: RunningServer;
      try {
        server = await listen(app, { host: options.host, port });
      } catch (error) {
        throw bindError(error, options.host, port);
      }
      if (!apiKeys && !(LOOPBACK_HOSTS as readonly string[]).includes(hostnameOf(options.host))) {
        logger.warn(
          `listening on ${options.host} without an API key: anyone who can reach this port can read and change memories; set HINDSIGHT_API_KEY or HINDSIGHT_API_KEYS`,
        );
      }
      process.stderr.write(`hindsight: listening on ${server.url} (REST /v1, MCP /mcp)\n`);
      process.stderr.write(`hindsight: memory inspector at ${server.url}/ui\n`);
      // Maintenance and consolidation (HINDSIGHT_MAINTAIN_INTERVAL, …_CONSOLIDATE_INTERVAL)
      // of every tenant's store, not only of those that had a request.
      const tenantNames = new Set([
        DEFAULT_TENANT,
        ...[...(apiKeys?.values() ?? [])].map((holder) => holder.tenant),
      ]);
      const schedule = startLifecycleSchedule(
        () => [...tenantNames].map((tenant) => tenants.get(tenant)),
        memory.config.lifecycle.schedule,
        logger,
      );
      if (schedule.jobs.length > 0) logger.info(`scheduled: ${schedule.jobs.join(", ")}`);
      const signal = await nextSignal();
      process.stderr.write(`hindsight: ${signal}: finishing requests in flight, then stopping\n`);
      await schedule.stop();
      await server.close();
      await tenants.close();
    },
    "now",
  );
}
