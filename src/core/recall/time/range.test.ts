import { describe, expect, it } from "vitest";
import { parseInstant, parseTimeRange } from "./range.js";

describe("parseTimeRange", () => {
  it("includes the whole end day for date-only ranges", () => {
    expect(parseTimeRange("2024-01-01~2024-01-31")).toEqual({
      from: new Date("2024-01-01T00:00:00.000Z"),
      to: new Date("2024-01-31T23:59:59.999Z"),
    });
  });

  it("accepts date-times and open sides", () => {
    expect(parseTimeRange("2024-01-01T10:00:00Z~")).toEqual({
      from: new Date("2024-01-01T10:00:00Z"),
    });
    expect(parseTimeRange("~2024-02-01T08:00:00+08:00")).toEqual({
      to: new Date("2024-02-01T00:00:00Z"),
    });
  });

  it.each([
    ["2024-01-01", "expected <from>~<to>"],
    ["~", "at least one side"],
    ["yesterday~today", "not an ISO date"],
    ["2024-02-31~2024-03-01", "not an ISO date"],
    ["2024-03-01~2024-01-01", "start is after the end"],
  ])("rejects %s", (input, message) => {
    const result = parseTimeRange(input);
    expect(typeof result).toBe("string");
    expect(result).toContain(message);
  });
});

describe("parseInstant", () => {
  it("reads offset-less date-times as UTC", () => {
    expect(parseInstant("2024-05-08 13:56")).toEqual(new Date("2024-05-08T13:56:00Z"));
  });
});

describe("parseInstant, as written", () => {
  it.each([
    "2024-06-31T10:00:00+02:00", // 31 June, offset or not
    "2024-02-30T00:00:00-05:00",
    "2023-02-29",
    "0000-01-01", // year 0: not a year PostgreSQL writes
    "9999-12-31T23:00:00-05:00", // year 10000 in UTC
    "2024-05-01T24:00:00Z",
    "2024-05-01T10:60:00Z",
    "2024-05-01T10:00:00+24:00",
  ])("refuses %s", (text) => {
    expect(parseInstant(text)).toBeUndefined();
  });

  it.each([
    ["2024-02-29", "2024-02-29T00:00:00.000Z"],
    ["0001-01-01", "0001-01-01T00:00:00.000Z"],
    ["9999-12-31T23:59:59Z", "9999-12-31T23:59:59.000Z"],
    ["2024-06-30T23:30:00-02:00", "2024-07-01T01:30:00.000Z"],
    ["2024-06-30T10:00:00+0530", "2024-06-30T04:30:00.000Z"],
  ])("reads %s", (text, iso) => {
    expect(parseInstant(text)?.toISOString()).toBe(iso);
  });
});
