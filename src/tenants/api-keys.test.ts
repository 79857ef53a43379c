import { describe, expect, it } from "vitest";
import { apiKeysFromEnv, keyDigest, parseApiKeys } from "./api-keys.js";

describe("API keys", () => {
  it("reads key:tenant pairs from commas and lines, skipping comments", () => {
    const table = parseApiKeys("k1:acme, k2:globex\n# ops team\nk3:acme\n", "test");
    expect(table.get(keyDigest("k1"))).toEqual({ tenant: "acme" });
    expect(table.get(keyDigest("k2"))).toEqual({ tenant: "globex" });
    expect(table.get(keyDigest("k3"))).toEqual({ tenant: "acme" });
    expect(table.size).toBe(3);
  });

  it("binds a key to one agent of its tenant with key:tenant/agent", () => {
    const table = parseApiKeys("k1:acme/planner-1\nk:with:colons:acme/exec", "test");
    expect(table.get(keyDigest("k1"))).toEqual({ tenant: "acme", agent: "planner-1" });
    expect(table.get(keyDigest("k:with:colons"))).toEqual({ tenant: "acme", agent: "exec" });
  });

  it("keeps only digests, never the keys", () => {
    const table = parseApiKeys("sup3r-secret:acme", "test");
    expect([...table.keys()].join()).not.toContain("sup3r-secret");
  });

  it.each([
    ["nocolon", "not 'key:tenant'"],
    [":acme", "not 'key:tenant'"],
    ["k1:Acme Corp", "tenant 'Acme Corp'"],
    ["k1:acme,k1:globex", "the same key is given to 'acme' and 'globex'"],
    ["k1:acme,k1:acme/bot", "the same key is given to 'acme' and 'acme/bot'"],
    ["k1:acme/", "agent '' is empty"],
    ["k1:acme/a/b", "not 'key:tenant' or 'key:tenant/agent'"],
  ])("refuses %j naming the entry", (text, message) => {
    expect(() => parseApiKeys(text, "HINDSIGHT_API_KEYS")).toThrow(
      expect.objectContaining({
        code: "CONFIG_INVALID",
        field: "HINDSIGHT_API_KEYS",
        message: expect.stringContaining(message),
      }),
    );
  });

  it("combines the single key (default tenant), the list and the file", () => {
    const table = apiKeysFromEnv(
      {
        HINDSIGHT_API_KEY: "single",
        HINDSIGHT_API_KEYS: "a:acme",
        HINDSIGHT_API_KEYS_FILE: "/keys",
      },
      (path) => (path === "/keys" ? "b:globex\n" : ""),
    );
    expect(table && Object.fromEntries(table)).toEqual({
      [keyDigest("single")]: { tenant: "default" },
      [keyDigest("a")]: { tenant: "acme" },
      [keyDigest("b")]: { tenant: "globex" },
    });
    expect(apiKeysFromEnv({}, () => "")).toBeUndefined();
  });

  it("takes the single key from HINDSIGHT_API_KEY_FILE (a Docker secret), without its newline", () => {
    const files: Record<string, string> = {
      "/run/secrets/key": "s3cret-key\n",
      "/run/secrets/empty": "\n",
    };
    const read = (path: string) => files[path] ?? "";
    const table = apiKeysFromEnv({ HINDSIGHT_API_KEY_FILE: "/run/secrets/key" }, read);
    expect(table && Object.fromEntries(table)).toEqual({
      [keyDigest("s3cret-key")]: { tenant: "default" },
    });
    // An empty secret is no key, as an empty HINDSIGHT_API_KEY is (serve then warns).
    expect(apiKeysFromEnv({ HINDSIGHT_API_KEY_FILE: "/run/secrets/empty" }, read)).toBeUndefined();
    // A key:tenant list in the single-key file is refused rather than taken as one odd key.
    expect(() =>
      apiKeysFromEnv({ HINDSIGHT_API_KEY_FILE: "/run/secrets/two" }, () => "k1\nk2\n"),
    ).toThrow(expect.objectContaining({ code: "CONFIG_INVALID", field: "HINDSIGHT_API_KEY_FILE" }));
    expect(() =>
      apiKeysFromEnv({ HINDSIGHT_API_KEY_FILE: "/missing" }, () => {
        throw new Error("ENOENT");
      }),
    ).toThrow(
      expect.objectContaining({
        field: "HINDSIGHT_API_KEY_FILE",
        message: expect.stringContaining("/missing"),
      }),
    );
  });

  it("says which file it could not read", () => {
    expect(() =>
      apiKeysFromEnv({ HINDSIGHT_API_KEYS_FILE: "/missing" }, () => {
        throw new Error("ENOENT");
      }),
    ).toThrow(
      expect.objectContaining({
        code: "CONFIG_INVALID",
        message: expect.stringContaining("/missing"),
      }),
    );
  });
});
