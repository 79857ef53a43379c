/**
 * Retrieval metrics, computed per question and averaged. Everything here is pure: the
 * harnesses turn recall results into ranked lists of labels (dia_ids, message ids, keys) and
 * hand them over with the set of relevant labels.
 */

/**
 * Splits evidence labels as LoCoMo writes them: most are one id per string, a few hold several
 * ("D8:6; D9:17"). Splits on `;`, `,` and whitespace, trims, drops empty pieces and repeats.
 * Labels that name no turn are kept: they still count in the denominator of recall.
 */
export function splitLabels(values: readonly (string | number)[]): string[] {
  const labels = values.flatMap((value) =>
    String(value)
      .split(/[;,\s]+/)
      .map((piece) => piece.trim())
      .filter((piece) => piece.length > 0),
  );
  return [...new Set(labels)];
}

/**
 * Recall@k of one question: the share of its relevant labels found among the first k ranked
 * labels. A question with no relevant label counts 1 (nothing was missed).
 */
export function recallAt(
  ranked: readonly (string | undefined)[],
  relevant: readonly string[],
  k: number,
): number {
  const wanted = new Set(relevant);
  if (wanted.size === 0) return 1;
  const top = new Set(ranked.slice(0, k));
  let found = 0;
  for (const label of wanted) if (top.has(label)) found += 1;
  return found / wanted.size;
}

/**
 * Reciprocal rank: 1/rank of the first relevant label (ranks start at 1), 0 when none was
 * retrieved. A question with no relevant label counts 1, as in recallAt.
 */
export function reciprocalRank(
  ranked: readonly (string | undefined)[],
  relevant: readonly string[],
): number {
  const wanted = new Set(relevant);
  if (wanted.size === 0) return 1;
  const index = ranked.findIndex((label) => label !== undefined && wanted.has(label));
  return index === -1 ? 0 : 1 / (index + 1);
}

/** The scores every ranked-list harness reports: R@1, R@5 and MRR. */
export function rankingScores(
  ranked: readonly (string | undefined)[],
  relevant: readonly string[],
): { "R@1": number; "R@5": number; MRR: number } {
  return {
    "R@1": recallAt(ranked, relevant, 1),
    "R@5": recallAt(ranked, relevant, 5),
    MRR: reciprocalRank(ranked, relevant),
  };
}

/** Sums of per-question scores, so groups (categories, files) can be averaged at the end. */
export class MeanAccumulator {
  private readonly sums = new Map<string, number>();
  private count = 0;

  add(scores: Readonly<Record<string, number>>): void {
    for (const [name, value] of Object.entries(scores)) {
      this.sums.set(name, (this.sums.get(name) ?? 0) + value);
    }
    this.count += 1;
  }

  get questions(): number {
    return this.count;
  }

  /** Means, rounded to 4 decimals, in the order the names are given; 0 for an empty group. */
  means(names: readonly string[]): Record<string, number> {
    return Object.fromEntries(
      names.map((name) => [
        name,
        this.count === 0 ? 0 : round((this.sums.get(name) ?? 0) / this.count, 4),
      ]),
    );
  }
}

/** Per-group accumulators, created on first use, listed in a stable order. */
export class GroupedMeans {
  private readonly groups = new Map<string, MeanAccumulator>();

  add(group: string, scores: Readonly<Record<string, number>>): void {
    let accumulator = this.groups.get(group);
    if (!accumulator) {
      accumulator = new MeanAccumulator();
      this.groups.set(group, accumulator);
    }
    accumulator.add(scores);
  }

  /** `{group: {...means, questions}}`, groups sorted numerically when they are numbers. */
  report(names: readonly string[]): Record<string, Record<string, number>> {
    const keys = [...this.groups.keys()].sort(compareGroups);
    return Object.fromEntries(
      keys.map((key) => {
        const accumulator = this.groups.get(key)!;
        return [key, { ...accumulator.means(names), questions: accumulator.questions }];
      }),
    );
  }
}

function compareGroups(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (Number.isFinite(x) && Number.isFinite(y)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** Parses `--k 1,5,10,25`: positive integers, sorted, without repeats. */
export function parseKs(text: string, max = 1000): number[] | string {
  const pieces = text
    .split(",")
    .map((piece) => piece.trim())
    .filter((piece) => piece.length > 0);
  if (pieces.length === 0) return "expected a comma-separated list of cut-offs, e.g. 1,5,10,25";
  const ks: number[] = [];
  for (const piece of pieces) {
    const k = Number(piece);
    if (!/^\d+$/.test(piece) || !Number.isSafeInteger(k) || k < 1 || k > max) {
      return `'${piece}' is not a whole number between 1 and ${max}`;
    }
    ks.push(k);
  }
  return [...new Set(ks)].sort((a, b) => a - b);
}
