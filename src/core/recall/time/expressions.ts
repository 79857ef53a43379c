/**
 * Time in recall queries, without an LLM: "上周三部署失败的原因", "what failed in the last 3 days".
 * `findTimeExpressions` finds the phrases that name a period, relative to the query time in a
 * time zone; `stripTimeExpressions` removes them so that keyword search does not look for
 * "yesterday". The pattern tables live in `./time/` (rules-zh, rules-en, rules-numeric); what the
 * vague phrases mean is decided once, for both languages, in `./time/periods.ts`.
 */
import { type Clock, dayPeriod, makeClock, type Period } from "./calendar.js";
import { sincePeriod } from "./periods.js";
import type { Rule } from "./rule.js";
import { EN_RULES } from "./rules-en.js";
import { NUMERIC_RULES } from "./rules-numeric.js";
import { ZH_RULES } from "./rules-zh.js";

export interface TimeExpression {
  /** The matched text, as it appears in the query. */
  text: string;
  /** Where `text` starts in the query (UTF-16 offset). */
  index: number;
  /** Inclusive start and end of the period meant. */
  from: Date;
  to: Date;
  /** How sure: "exact" for dates/days, "approximate" for vaguer periods ("recently", "最近"). */
  precision: "exact" | "approximate";
  /** "recently", "最近": see `periodsMeant`. */
  recency?: true;
}

export interface TimeExpressionOptions {
  /** IANA zone whose local midnights bound the days, e.g. "Asia/Shanghai". Default "UTC". */
  timeZone?: string;
  /** 1 = Monday (default: the Chinese and ISO convention), 0 = Sunday. */
  weekStartsOn?: 0 | 1;
}

/** In priority order: when two readings of the same length overlap, the earlier rule wins. */
const RULES: readonly Rule[] = [...NUMERIC_RULES, ...ZH_RULES, ...EN_RULES];

interface Match {
  start: number;
  end: number;
  period: Period;
  priority: number;
}

/**
 * The time expressions in `query`, in the order they appear. Where readings overlap the longest
 * wins ("上周三" over "上周", "the day before yesterday" over "yesterday"). Adjacent expressions
 * joined by "to" / "~" / "到" become one range, and "since …" / "…以来" runs to the end of today.
 */
export function findTimeExpressions(
  query: string,
  reference: Date,
  options: TimeExpressionOptions = {},
): TimeExpression[] {
  if (Number.isNaN(reference.getTime())) throw new RangeError("reference is not a valid date");
  const weekStartsOn = options.weekStartsOn ?? 1;
  if (weekStartsOn !== 0 && weekStartsOn !== 1) throw new RangeError("weekStartsOn must be 0 or 1");
  const clock = makeClock(reference, options.timeZone ?? "UTC", weekStartsOn);
  const matches = joinRanges(query, selectLongest(scan(query, clock)), clock);
  return matches.map(({ start, end, period }) => ({
    text: query.slice(start, end),
    index: start,
    from: period.from,
    to: period.to,
    precision: period.precision,
    ...(period.recency ? { recency: true as const } : {}),
  }));
}

/**
 * The periods a query means. "Recently" beside another period is recent as of that period,
 * not of now: "what did she bake recently, in May 2022?" and "the activity Maria started
 * recently, as mentioned on 3 June" mean May 2022 and 3 June, not the week before asking.
 * Alone, it is the last days.
 */
export function periodsMeant(expressions: readonly TimeExpression[]): TimeExpression[] {
  const dated = expressions.filter((expression) => !expression.recency);
  return dated.length > 0 ? dated : [...expressions];
}

function scan(query: string, clock: Clock): Match[] {
  const matches: Match[] = [];
  RULES.forEach((rule, priority) => {
    // The rule's own expression, restarted: a scan runs to its end without yielding, so no
    // other scan can move its lastIndex meanwhile (a copy per rule per query cost ~0.1 ms).
    const pattern = rule.pattern;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(query); match; match = pattern.exec(query)) {
      const period = match[0] ? rule.resolve(match, clock) : undefined;
      if (period) {
        matches.push({ start: match.index, end: match.index + match[0].length, period, priority });
      } else {
        // Refused (or empty): a shorter or later reading may still start at the next character.
        pattern.lastIndex = match.index + 1;
      }
    }
  });
  return matches;
}

/** Longest first, then rule priority, then position; keep those that overlap nothing kept. */
function selectLongest(matches: Match[]): Match[] {
  const ordered = [...matches].sort(
    (a, b) => b.end - b.start - (a.end - a.start) || a.priority - b.priority || a.start - b.start,
  );
  const kept: Match[] = [];
  for (const match of ordered) {
    if (kept.every((other) => match.end <= other.start || match.start >= other.end)) {
      kept.push(match);
    }
  }
  return kept.sort((a, b) => a.start - b.start);
}

// --- Ranges and "since". -----------------------------------------------------------------------

/** What may stand between the two ends of a range: 5月1日到5月8日, Monday to Wednesday, A~B. */
const RANGE_JOINER = /^\s*(?:~|～|-|–|—|to|through|thru|until|till|至|到)\s*$/i;
/** Words before a range's first end that belong to it: "between", "from", 从, 自. */
const RANGE_OPENER = /(?:(?:between|from)\s+|从\s*|自\s*)$/i;
/** After a range's last end: 之间, 期间 (5月1日到5月8日之间). */
const RANGE_CLOSER = /^(?:之间|期间)/;

/** "since last week"; 自从上周; 从上周开始, 从上周起; 上周以来, 上周至今. */
const SINCE_BEFORE_EN = /(?:^|[^A-Za-z])((?:ever\s+)?since\s+)$/i;
const SINCE_BEFORE_ZH = /(自从|自|从)\s*$/;
/** Suffixes that make a since-range on their own, and those that need 从/自 before. */
const SINCE_AFTER_ZH = /^\s*(以来|至今|到现在|到今天)/;
const SINCE_AFTER_WITH_FROM_ZH = /^\s*(开始|起)/;

function joinRanges(query: string, matches: Match[], clock: Clock): Match[] {
  const joined: Match[] = [];
  for (let i = 0; i < matches.length; i++) {
    const first = matches[i]!;
    const last = matches[i + 1];
    const range = last && asRange(query, first, last, clock);
    if (range) {
      joined.push(range);
      i++;
    } else {
      joined.push(asSince(query, first, clock) ?? first);
    }
  }
  return joined;
}

function asRange(query: string, first: Match, last: Match, clock: Clock): Match | undefined {
  const joiner = query.slice(first.end, last.start);
  const before = query.slice(0, first.start);
  const isRange =
    RANGE_JOINER.test(joiner) || (/^\s*and\s*$/i.test(joiner) && /between\s+$/i.test(before));
  if (!isRange) return undefined;
  const [from, to] = anchorWeekdays(first.period, last.period, clock);
  if (from.from > to.to) return undefined;
  const opener = RANGE_OPENER.exec(before)?.[0] ?? "";
  const closer = RANGE_CLOSER.exec(query.slice(last.end))?.[0] ?? "";
  const bothExact = from.precision === "exact" && to.precision === "exact";
  return {
    start: first.start - opener.length,
    end: last.end + closer.length,
    period: {
      from: new Date(Math.min(from.from.getTime(), to.from.getTime())),
      to: new Date(Math.max(from.to.getTime(), to.to.getTime())),
      precision: bothExact ? "exact" : "approximate",
    },
    priority: first.priority,
  };
}

/**
 * Weekdays read alone are the most recent ones, which can put a range's ends in the wrong order
 * ("Monday to Wednesday" asked on a Wednesday: Monday is two days back, Wednesday a week back).
 * Move the end forward a week if that is not in the future, else the start back a week.
 */
function anchorWeekdays(from: Period, to: Period, clock: Clock): [Period, Period] {
  if (from.from <= to.to) return [from, to];
  if (to.movableDay !== undefined && to.movableDay + 7 <= clock.today) {
    return [from, dayPeriod(clock, to.movableDay + 7)];
  }
  if (from.movableDay !== undefined) return [dayPeriod(clock, from.movableDay - 7), to];
  return [from, to];
}

function asSince(query: string, match: Match, clock: Clock): Match | undefined {
  const before = query.slice(0, match.start);
  const after = query.slice(match.end);
  const english = SINCE_BEFORE_EN.exec(before)?.[1];
  const chineseOpener = SINCE_BEFORE_ZH.exec(before)?.[0];
  const closer =
    SINCE_AFTER_ZH.exec(after)?.[0] ??
    (chineseOpener ? SINCE_AFTER_WITH_FROM_ZH.exec(after)?.[0] : undefined);
  let opener: string | undefined;
  if (english) opener = english;
  else if (chineseOpener && (closer || chineseOpener.startsWith("自从"))) opener = chineseOpener;
  if (opener === undefined && closer === undefined) return undefined;
  return {
    ...match,
    start: match.start - (opener?.length ?? 0),
    end: match.end + (closer?.length ?? 0),
    period: sincePeriod(clock, match.period),
  };
}

// --- Stripping. ----------------------------------------------------------------------------------

const CJK = /[\p{Script=Han}]/u;
const PUNCTUATION_AFTER = /\s+([,.!?;:，。！？；：、)）])/g;
const LEADING_PUNCTUATION = /^[\s,.;:，。；：、]+/;

/**
 * The query without the time expressions, for keyword search: "上周的周报" → "周报",
 * "what failed yesterday?" → "what failed?". A 的 right after a Chinese expression goes with it.
 */
export function stripTimeExpressions(query: string, found: readonly TimeExpression[]): string {
  const pieces: string[] = [];
  let cursor = 0;
  for (const expression of found) {
    const start =
      expression.index >= cursor && query.startsWith(expression.text, expression.index)
        ? expression.index
        : query.indexOf(expression.text, cursor);
    if (start < 0 || !expression.text) continue;
    pieces.push(query.slice(cursor, start));
    cursor = start + expression.text.length;
    if (CJK.test(expression.text.at(-1) ?? "") && query[cursor] === "的") cursor++;
  }
  pieces.push(query.slice(cursor));
  const joined = pieces.reduce((text, piece) => joinPieces(text, piece));
  const tidy = joined
    .replace(/\s+/g, " ")
    .replace(PUNCTUATION_AFTER, "$1")
    .replace(LEADING_PUNCTUATION, "")
    .trim();
  return /[\p{L}\p{N}]/u.test(tidy) ? tidy : "";
}

/** Joins what was on either side of a removed expression: a space between words, none in Chinese. */
function joinPieces(left: string, right: string): string {
  const last = left.at(-1) ?? " ";
  const first = right[0] ?? " ";
  const needsSpace = !/\s/.test(last) && !/\s/.test(first) && !CJK.test(last) && !CJK.test(first);
  return needsSpace ? `${left} ${right}` : left + right;
}
