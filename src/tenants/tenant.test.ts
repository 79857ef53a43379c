import { describe, expect, it } from "vitest";
import { parseConfig } from "../index.js";
import { tenantConfig } from "./tenant.js";

describe("tenantConfig", () => {
  const base = parseConfig({ dataDir: "/var/lib/hindsight", databaseUrl: "postgres://db/h" });

  it("leaves the default tenant where it always was", () => {
    expect(tenantConfig(base, "default")).toBe(base);
  });

  it("gives another tenant its own schema, directory and working-memory keys", () => {
    const acme = tenantConfig(base, "acme");
    expect(acme.databaseSchema).toBe("hindsight_acme");
    expect(acme.dataDir).toBe("/var/lib/hindsight/tenants/acme");
    expect(acme.working.keyPrefix).toBe("hindsight:working:tenant/acme/");
    expect(tenantConfig(base, "globex").working.keyPrefix).not.toBe(acme.working.keyPrefix);
  });

  it("keeps throw-away stores throw-away", () => {
    const memory = parseConfig({ dataDir: "memory://" });
    expect(tenantConfig(memory, "acme").dataDir).toBe("memory://");
    expect(tenantConfig(memory, "acme").databaseSchema).toBeUndefined();
  });
});
