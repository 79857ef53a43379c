/**
 * The evaluation commands' choices, apart from the runners: `hindsight --help` lists them
 * without loading the runners (and the service under them).
 */

/** LoCoMo: what "now" is for a question's relative times. */
export const REFERENCE_TIMES = ["last-session", "none"] as const;
export type LocomoReferenceTime = (typeof REFERENCE_TIMES)[number];

/**
 * LoCoMo: turns of the same session before a turn, passed as its `context` on store (what any
 * user storing a conversation turn by turn can pass): a reply such as "Yes, last Tuesday!" is
 * found by what it answers. Two by default (measured: docs/evaluation.md).
 */
export const CONTEXT_TURNS = 2;

/** MemDaily: what "now" is for a question's relative times. */
export const MEMDAILY_REFERENCE_TIMES = ["question", "none"] as const;
export type MemdailyReferenceTime = (typeof MEMDAILY_REFERENCE_TIMES)[number];
