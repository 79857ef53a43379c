import { describe, expect, it } from "vitest";
import { excerpt, parseRetryAfter, RETRY_AFTER_MAX_MS, resolveEndpoint } from "./retrying-post.js";

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");

  it("reads seconds and HTTP dates, capped, never negative", () => {
    expect(parseRetryAfter("2", now)).toBe(2000);
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 23:59:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("86400", now)).toBe(RETRY_AFTER_MAX_MS);
  });

  it("ignores absent or unreadable values", () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("", now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });
});

describe("excerpt", () => {
  it("masks the key and shortens long bodies to one line", () => {
    expect(excerpt('{"error":\n "bad key sk-123"}', "sk-123")).toBe('{"error": "bad key ***"}');
    expect(excerpt("x".repeat(500))).toHaveLength(201);
  });
});

describe("resolveEndpoint", () => {
  it("appends the path once, whatever the trailing slashes", () => {
    expect(resolveEndpoint("http://127.0.0.1:11434/v1/", "chat/completions", "c")).toBe(
      "http://127.0.0.1:11434/v1/chat/completions",
    );
  });

  it("refuses other schemes and credentials in the URL as CONFIG_INVALID", () => {
    expect(() => resolveEndpoint("ftp://host/v1", "x", "c")).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID" }),
    );
    expect(() => resolveEndpoint("https://u:p@host/v1", "x", "c")).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID" }),
    );
  });
});
