/** Polls a condition (not a clock) until it holds, failing after `timeoutMs`. */
export async function until(what: string, condition: () => boolean, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
