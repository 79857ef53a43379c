/**
 * The Porter stemmer (M.F. Porter, "An algorithm for suffix stripping", 1980), for English
 * words in keyword search: "hiking", "hiked" and "hikes" all become "hike", so a question
 * finds a memory that used another form of its words. Only lower-case a–z words are stemmed;
 * Chinese words, numbers and mixed tokens are returned unchanged.
 */

// A consonant run [C], a vowel run [V] and the measure m of a stem written [C](VC)^m[V].
const CONSONANTS = "[^aeiou]";
const VOWEL = "[aeiouy]";
const CONSONANT_RUN = `${CONSONANTS}[^aeiouy]*`;
const VOWEL_RUN = `${VOWEL}[aeiou]*`;
const MEASURE_ABOVE_0 = new RegExp(`^(${CONSONANT_RUN})?${VOWEL_RUN}${CONSONANT_RUN}`);
const MEASURE_IS_1 = new RegExp(`^(${CONSONANT_RUN})?${VOWEL_RUN}${CONSONANT_RUN}(${VOWEL_RUN})?$`);
const MEASURE_ABOVE_1 = new RegExp(
  `^(${CONSONANT_RUN})?${VOWEL_RUN}${CONSONANT_RUN}${VOWEL_RUN}${CONSONANT_RUN}`,
);
const HAS_VOWEL = new RegExp(`^(${CONSONANT_RUN})?${VOWEL}`);
/** Ends consonant-vowel-consonant, the last not w, x or y (*o in the paper). */
const ENDS_CVC = new RegExp(`^${CONSONANT_RUN}${VOWEL}[^aeiouwxy]$`);

const STEP2: Record<string, string> = {
  ational: "ate",
  tional: "tion",
  enci: "ence",
  anci: "ance",
  izer: "ize",
  bli: "ble",
  alli: "al",
  entli: "ent",
  eli: "e",
  ousli: "ous",
  ization: "ize",
  ation: "ate",
  ator: "ate",
  alism: "al",
  iveness: "ive",
  fulness: "ful",
  ousness: "ous",
  aliti: "al",
  iviti: "ive",
  biliti: "ble",
  logi: "log",
};
const STEP2_SUFFIX = new RegExp(`^(.+?)(${Object.keys(STEP2).join("|")})$`);

const STEP3: Record<string, string> = {
  icate: "ic",
  ative: "",
  alize: "al",
  iciti: "ic",
  ical: "ic",
  ful: "",
  ness: "",
};
const STEP3_SUFFIX = new RegExp(`^(.+?)(${Object.keys(STEP3).join("|")})$`);

const STEP4_SUFFIX =
  /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/;
const STEP4_ION = /^(.+?)([st])ion$/;

const ENGLISH_WORD = /^[a-z]+$/;

/** Plurals and -ed / -ing (step 1a, 1b) and a final y after a vowel-bearing stem (1c). */
function step1(word: string): string {
  let w = word;
  if (/^(.+?)(ss|i)es$/.test(w)) w = w.replace(/^(.+?)(ss|i)es$/, "$1$2");
  else if (/^(.+?)([^s])s$/.test(w)) w = w.replace(/^(.+?)([^s])s$/, "$1$2");

  const eed = /^(.+?)eed$/.exec(w);
  const edIng = /^(.+?)(ed|ing)$/.exec(w);
  if (eed) {
    if (MEASURE_ABOVE_0.test(eed[1]!)) w = w.slice(0, -1);
  } else if (edIng && HAS_VOWEL.test(edIng[1]!)) {
    w = edIng[1]!;
    if (/(at|bl|iz)$/.test(w)) w += "e";
    else if (/([^aeiouylsz])\1$/.test(w)) w = w.slice(0, -1);
    else if (ENDS_CVC.test(w)) w += "e";
  }

  const y = /^(.+?)y$/.exec(w);
  if (y && HAS_VOWEL.test(y[1]!)) w = `${y[1]}i`;
  return w;
}

/** Double suffixes to single ones (steps 2 and 3), then -ant, -ence … (step 4). */
function steps2to4(word: string): string {
  let w = word;
  const double = STEP2_SUFFIX.exec(w);
  if (double && MEASURE_ABOVE_0.test(double[1]!)) w = double[1]! + STEP2[double[2]!];
  const single = STEP3_SUFFIX.exec(w);
  if (single && MEASURE_ABOVE_0.test(single[1]!)) w = single[1]! + STEP3[single[2]!];
  const suffix = STEP4_SUFFIX.exec(w);
  const ion = STEP4_ION.exec(w);
  if (suffix) {
    if (MEASURE_ABOVE_1.test(suffix[1]!)) w = suffix[1]!;
  } else if (ion && MEASURE_ABOVE_1.test(ion[1]! + ion[2]!)) {
    w = ion[1]! + ion[2]!;
  }
  return w;
}

/** A final -e and a double l (step 5). */
function step5(word: string): string {
  let w = word;
  const e = /^(.+?)e$/.exec(w);
  if (e) {
    const stem = e[1]!;
    if (MEASURE_ABOVE_1.test(stem) || (MEASURE_IS_1.test(stem) && !ENDS_CVC.test(stem))) w = stem;
  }
  if (/ll$/.test(w) && MEASURE_ABOVE_1.test(w)) w = w.slice(0, -1);
  return w;
}

export function stem(word: string): string {
  if (word.length < 3 || !ENGLISH_WORD.test(word)) return word;
  // An initial y is a consonant: mark it so the vowel patterns skip it.
  const initialY = word.startsWith("y");
  let w = initialY ? `Y${word.slice(1)}` : word;
  w = step5(steps2to4(step1(w)));
  return initialY ? `y${w.slice(1)}` : w;
}
