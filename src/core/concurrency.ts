/** Maps with at most `limit` calls in flight, keeping the input order in the result. */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** A place in a line of turns: `ready` once every earlier turn is `done`. */
export interface Turn {
  ready: Promise<void>;
  /** Ends this turn (call it once, also on failure); later turns wait for it. */
  done(): void;
}

/**
 * Turns handed out in the order `take` is called: work that may start early (reading,
 * embedding) runs side by side, and the part that must keep the callers' order (writing)
 * waits for its turn.
 */
export class Turns {
  private last: Promise<void> = Promise.resolve();

  take(): Turn {
    let done!: () => void;
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    const ready = this.last;
    this.last = ready.then(() => finished);
    return { ready, done };
  }
}
