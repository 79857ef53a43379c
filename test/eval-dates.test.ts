/** The free-text dates of LoCoMo and MemDaily, read as UTC. */
import { describe, expect, it } from "vitest";
import { fillMissingTimes, parseLocomoDateTime, parseMemdailyTime } from "../src/eval/dates.js";

const iso = (date: Date | undefined) => date?.toISOString();

describe("parseLocomoDateTime", () => {
  it.each([
    ["1:56 pm on 8 May, 2023", "2023-05-08T13:56:00.000Z"],
    ["10:37 am on 27 June, 2023", "2023-06-27T10:37:00.000Z"],
    ["12:09 am on 13 September, 2023", "2023-09-13T00:09:00.000Z"],
    ["12:30 pm on 1 January, 2024", "2024-01-01T12:30:00.000Z"],
    ["  3:05 PM on 9 july , 2022 ", "2022-07-09T15:05:00.000Z"],
    ["1:56pm on 8 May, 2023", "2023-05-08T13:56:00.000Z"],
    ["7 p.m. on 2 Sept. 2023", "2023-09-02T19:00:00.000Z"],
    ["13:56 on 8 May, 2023", "2023-05-08T13:56:00.000Z"],
    ["May 8th, 2023 at 1:56 pm", "2023-05-08T13:56:00.000Z"],
    ["8 May 2023", "2023-05-08T00:00:00.000Z"],
    ["29 February, 2024", "2024-02-29T00:00:00.000Z"],
    ["2023-05-08T13:56:00Z", "2023-05-08T13:56:00.000Z"],
  ])("reads %j", (text, expected) => {
    expect(iso(parseLocomoDateTime(text))).toBe(expected);
  });

  it.each([
    "",
    "   ",
    "yesterday",
    "1:56 pm on 8 Mayo, 2023",
    "1:56 pm on 31 June, 2023",
    "29 February, 2023",
    "13:56 pm on 8 May, 2023",
    "25:00 on 8 May, 2023",
    "1:56 pm on May, 2023",
    "1:56 pm on 8 May",
    "8 May 2023 9 June 2023",
  ])("refuses %j", (text) => {
    expect(parseLocomoDateTime(text)).toBeUndefined();
  });
});

describe("parseMemdailyTime", () => {
  it.each([
    ["2024年04月01日 周一 08:30", "2024-04-01T08:30:00.000Z"],
    ["2024年4月1日 星期一 8:05", "2024-04-01T08:05:00.000Z"],
    ["2024年04月07日 周日 23:59", "2024-04-07T23:59:00.000Z"],
    ["2024年04月01日 08:30", "2024-04-01T08:30:00.000Z"],
    ["2024年04月01日", "2024-04-01T00:00:00.000Z"],
    ["2024年04月01日 周一 08：30", "2024-04-01T08:30:00.000Z"],
    ["2024-04-01T08:30:00Z", "2024-04-01T08:30:00.000Z"],
  ])("reads %j", (text, expected) => {
    expect(iso(parseMemdailyTime(text))).toBe(expected);
  });

  it.each([
    "",
    "下周六晚上七点",
    "2024年13月01日 周一 08:30",
    "2024年02月30日",
    "2024年04月01日 周一 24:00",
  ])("refuses %j", (text) => {
    expect(parseMemdailyTime(text)).toBeUndefined();
  });
});

describe("fillMissingTimes", () => {
  const a = new Date("2023-01-01T00:00:00Z");
  const b = new Date("2023-02-01T00:00:00Z");
  const fallback = new Date("2030-01-01T00:00:00Z");

  it("gives a missing time the previous one, else the next one, and counts them", () => {
    const { times, missing } = fillMissingTimes([undefined, a, undefined, b, undefined], fallback);
    expect(times.map(iso)).toEqual([a, a, a, b, b].map(iso));
    expect(missing).toBe(3);
  });

  it("falls back when nothing is dated", () => {
    expect(fillMissingTimes([undefined, undefined], fallback)).toEqual({
      times: [fallback, fallback],
      missing: 2,
    });
  });
});
