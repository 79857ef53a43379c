/** Serving an app on a real socket, and stopping it gracefully. */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import type { Hono } from "hono";

export interface RunningServer {
  /** `http://127.0.0.1:8080`, with the real port when 0 was asked for. */
  readonly url: string;
  readonly port: number;
  /**
   * Stops accepting connections and resolves when in-flight requests are done; connections
   * still busy after `graceMs` are cut.
   */
  close(graceMs?: number): Promise<void>;
}

/** Rejects with Node's own error (`code` EADDRINUSE, EACCES, EADDRNOTAVAIL…) when binding fails. */
export function listen(
  app: Pick<Hono, "fetch">,
  options: { host: string; port: number },
): Promise<RunningServer> {
  const server = createAdaptorServer({ fetch: app.fetch, hostname: options.host }) as Server;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(":") ? `[${options.host}]` : options.host;
      resolve({ url: `http://${host}:${port}`, port, close: (graceMs) => stop(server, graceMs) });
    });
  });
}

function stop(server: Server, graceMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    force.unref();
    server.close((error) => {
      clearTimeout(force);
      if (error) reject(error);
      else resolve();
    });
    // Keep-alive connections between requests would hold close() open until they time out.
    server.closeIdleConnections();
  });
}
