import { describe, expect, it } from "vitest";
import { parseConfig } from "./parse-config.js";

describe("parseConfig refuses a configuration that cannot work, naming the setting", () => {
  it.each([
    [{ databaseUrl: "not a url" }, "databaseUrl", "postgres://"],
    [{ databaseUrl: "mysql://127.0.0.1/x" }, "databaseUrl", "postgres://"],
    // The schema of tenant "acme": two tenants in one schema would merge their memories.
    [
      { databaseUrl: "postgres://127.0.0.1/test", databaseSchema: "hindsight_acme" },
      "databaseSchema",
      "tenants",
    ],
  ])("%j", (input, field, message) => {
    expect(() => parseConfig({ dataDir: "memory://", ...input })).toThrow(
      expect.objectContaining({
        code: "CONFIG_INVALID",
        field,
        message: expect.stringContaining(message),
      }),
    );
  });

  it("says a setting left out is required", () => {
    expect(() => parseConfig({} as never)).toThrow(
      expect.objectContaining({ field: "dataDir", message: "dataDir: required (string)" }),
    );
  });

  it("takes PostgreSQL URLs and schema names of its own", () => {
    const config = parseConfig({
      dataDir: "memory://",
      databaseUrl: "postgresql://user:pw@db.internal:5433/memory?sslmode=require",
      databaseSchema: "memories",
    });
    expect(config.databaseSchema).toBe("memories");
  });
});
