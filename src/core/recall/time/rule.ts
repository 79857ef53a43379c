import type { Clock, Period } from "./calendar.js";

/**
 * One way of writing time: a regular expression for its shape and a resolver for its meaning.
 * The resolver may refuse a match (an impossible date, a verb "may"); the scanner then tries
 * again from the next character, so a shorter reading can still be found.
 */
export interface Rule {
  /** Names a rule in tests and when debugging. */
  name: string;
  pattern: RegExp;
  resolve(match: RegExpExecArray, clock: Clock): Period | undefined;
}

/** Builds a rule; the pattern is always global and Unicode, plus any extra flags. */
export function rule(name: string, source: string, resolve: Rule["resolve"], flags = ""): Rule {
  return { name, pattern: new RegExp(source, `gu${flags}`), resolve };
}

/** A named group's text, or `undefined` when it did not take part in the match. */
export function group(match: RegExpExecArray, name: string): string | undefined {
  return match.groups?.[name];
}
