/**
 * Units of measure written one way in keyword search, whatever the language or abbreviation:
 * "164cm", "164 cm" and 164厘米 all hold the keywords 164 and 厘米. A user says her height in
 * one form and asks in another ("那个身高164cm的人…" against "我表妹身高有164厘米"); without one
 * form "164cm" is a single keyword that shares nothing with 164 / 厘米, and the number, the
 * most telling word of such a question, is lost to keyword search.
 *
 * Each unit is written as the Chinese word the segmenter keeps whole (厘米, 公里, 小时), as
 * calendar words are (text/calendar-words): an English word is mapped onto it one to one, so
 * an English-only store ranks as before except that abbreviations and full names now match.
 */
import { stem } from "./stem.js";

interface Unit {
  /** Words that name this unit wherever they stand. */
  always: readonly string[];
  /**
   * Abbreviations that name it only after a number ("5 m", "45 min", "2 l", glued or not):
   * alone they are other words ("I'm" gives "m", "min" is a minimum, "ML" machine learning).
   */
  afterNumber?: readonly string[];
}

/**
 * By the one form each is written in. Grams, seconds and feet are left out: "5G", "the 1990s",
 * "second" (the ordinal) and feet (the body part) would join them.
 */
const UNITS: Record<string, Unit> = {
  毫米: { always: ["mm", "millimeter", "millimeters", "millimetre", "millimetres"] },
  厘米: { always: ["cm", "公分", "centimeter", "centimeters", "centimetre", "centimetres"] },
  米: { always: ["meter", "meters", "metre", "metres"], afterNumber: ["m"] },
  公里: {
    always: ["km", "kms", "千米", "kilometer", "kilometers", "kilometre", "kilometres"],
  },
  公斤: { always: ["kg", "kgs", "千克", "kilogram", "kilograms", "kilo", "kilos"] },
  磅: { always: ["lb", "lbs"] },
  毫升: {
    always: ["milliliter", "milliliters", "millilitre", "millilitres"],
    afterNumber: ["ml"],
  },
  升: { always: ["liter", "liters", "litre", "litres"], afterNumber: ["l"] },
  小时: { always: ["hour", "hours", "钟头"], afterNumber: ["h", "hr", "hrs"] },
  分钟: { always: ["minute", "minutes"], afterNumber: ["min", "mins"] },
  美元: { always: ["usd", "dollar", "dollars", "美金"] },
};

const entries = (pick: (unit: Unit) => readonly string[] | undefined) =>
  Object.entries(UNITS).flatMap(([form, unit]) =>
    (pick(unit) ?? []).map((word): [string, string] => [word, form]),
  );

const ALWAYS = new Map(entries((unit) => unit.always));
const AFTER_NUMBER = new Map(entries((unit) => unit.afterNumber));
/** Every unit's words, for one glued to a number (which is after a number by its place). */
const GLUED_UNITS = new Map([...ALWAYS, ...AFTER_NUMBER]);
/** A number with a unit glued on: "164cm", "3.5km" (the tokenizer has dropped the point). */
const GLUED = /^(\d+)([a-z]+)$/;
const NUMBER = /^\d+$/;

interface UnitNames {
  always: ReadonlyMap<string, string>;
  afterNumber: ReadonlyMap<string, string>;
}

/** Lower-cased tokens in text order with every unit of measure in its one form. */
export function unitWords(tokens: readonly string[]): string[] {
  return inOneForm(tokens, { always: ALWAYS, afterNumber: AFTER_NUMBER });
}

function inOneForm(tokens: readonly string[], names: UnitNames): string[] {
  const words: string[] = [];
  for (const token of tokens) {
    const glued = GLUED.exec(token);
    const unit = glued ? GLUED_UNITS.get(glued[2]!) : undefined;
    if (unit !== undefined) {
      words.push(glued![1]!, unit);
    } else if (names.afterNumber.has(token) && NUMBER.test(words.at(-1) ?? "")) {
      words.push(names.afterNumber.get(token)!);
    } else {
      words.push(names.always.get(token) ?? token);
    }
  }
  return words;
}

// ---- Upgrading search terms stored before units had one form.

/**
 * The stems the words were stored as (stemming leaves Chinese words as they are). A glued
 * token holds a digit, which stemming leaves whole: "10mins" was stored as it is.
 */
const stemmed = (map: ReadonlyMap<string, string>) =>
  new Map([...map].map(([word, form]): [string, string] => [stem(word), form]));
const STORED = { always: stemmed(ALWAYS), afterNumber: stemmed(AFTER_NUMBER) };

/**
 * Stored search terms (stemmed, as the tokenizer before units had one form gave them) as the
 * current tokenizer gives them. Terms already current are returned as they are.
 */
export function upgradeStoredUnits(terms: readonly string[]): string[] {
  return inOneForm(terms, STORED);
}
