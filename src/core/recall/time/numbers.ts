/**
 * Counts written in queries: ASCII and full-width digits, Chinese numerals (一 … 九十九, 两) and
 * English number words. "A few" / "几" is its own value, `FEW`, resolved per unit by the caller.
 */

export const FEW = "few";
export type Count = number | typeof FEW;

const ZH_DIGITS: Record<string, number> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};

const EN_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
};

/** English number words accepted before a unit (regex alternation, longest first). */
export const EN_COUNT =
  "\\d{1,3}|a\\s+couple\\s+of|couple\\s+of|a\\s+few|few|several|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|an|a";

/** Chinese counts before a unit: digits, numerals, 几 ("a few"). */
export const ZH_COUNT = "[0-9０-９]{1,3}|[零〇一二两三四五六七八九十]{1,3}|几";

/** Full-width digits (２０２３) read as ASCII. */
function asciiDigits(text: string): string {
  return text.replace(/[０-９]/g, (digit) => String(digit.charCodeAt(0) - 0xff10));
}

/** 3, ３, 三, 十一, 二十三, 两 → number; `undefined` when not a well-formed count. */
export function parseZhNumber(text: string): number | undefined {
  const ascii = asciiDigits(text);
  if (/^\d+$/.test(ascii)) return Number(ascii);
  // Positional numerals: 十 (10), 十二 (12), 二十 (20), 二十三 (23). 两 only stands alone or as a
  // tens digit, as in speech.
  const match = /^([一二两三四五六七八九])?十([一二三四五六七八九])?$/.exec(text);
  if (match) {
    const tens = match[1] ? (ZH_DIGITS[match[1]] ?? 0) : 1;
    const units = match[2] ? (ZH_DIGITS[match[2]] ?? 0) : 0;
    return tens * 10 + units;
  }
  if (text.length === 1 && text in ZH_DIGITS) return ZH_DIGITS[text];
  return undefined;
}

/** A year written digit by digit: 2023, ２０２３, 二〇二三, 二零二三. */
export function parseZhYear(text: string): number | undefined {
  const ascii = asciiDigits(text);
  if (/^\d{4}$/.test(ascii)) return Number(ascii);
  if (text.length !== 4) return undefined;
  let year = 0;
  for (const char of text) {
    const digit = ZH_DIGITS[char];
    if (digit === undefined || char === "两") return undefined;
    year = year * 10 + digit;
  }
  return year;
}

export function parseZhCount(text: string): Count | undefined {
  return text === "几" ? FEW : parseZhNumber(text);
}

export function parseEnCount(text: string): Count | undefined {
  const word = text.toLowerCase().replace(/\s+/g, " ");
  if (/^\d+$/.test(word)) return Number(word);
  if (word === "a couple of" || word === "couple of") return 2;
  if (word === "a few" || word === "few" || word === "several") return FEW;
  return EN_WORDS[word];
}
