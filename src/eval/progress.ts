/**
 * A progress bar on stderr (never stdout, which carries the result). On a terminal it redraws
 * one line in place; elsewhere (CI logs, pipes) it prints a line every tenth of the way.
 */

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Progress {
  /** Records `steps` more units of work done. */
  tick(steps?: number): void;
  /** Says what is being worked on (e.g. the conversation). */
  status(text: string): void;
  /** Draws the final state and ends the line. */
  done(): void;
}

export interface ProgressOptions {
  label: string;
  total: number;
  stream?: ProgressStream;
  enabled?: boolean;
  /** Milliseconds; injectable for tests. */
  now?: () => number;
}

const REDRAW_MS = 100;
const BAR_WIDTH = 24;

export const noProgress: Progress = { tick() {}, status() {}, done() {} };

export function createProgress(options: ProgressOptions): Progress {
  if (options.enabled === false) return noProgress;
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? (() => performance.now());
  const started = now();
  const total = Math.max(0, options.total);
  const tty = stream.isTTY === true;
  let done = 0;
  let status = "";
  let lastDraw = Number.NEGATIVE_INFINITY;
  let lastTenth = 0;
  let lastPrinted = -1;
  let finished = false;

  const describe = () => {
    const share = total === 0 ? 1 : Math.min(1, done / total);
    const seconds = ((now() - started) / 1000).toFixed(0);
    const percent = `${Math.floor(share * 100)}%`.padStart(4);
    return { share, text: `${done}/${total} ${percent} ${seconds}s${status ? ` ${status}` : ""}` };
  };

  const draw = (force: boolean) => {
    const { share, text } = describe();
    if (tty) {
      const time = now();
      if (!force && time - lastDraw < REDRAW_MS) return;
      lastDraw = time;
      const filled = Math.round(share * BAR_WIDTH);
      const bar = `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}]`;
      let line = `${options.label} ${bar} ${text}`;
      const width = stream.columns ?? 0;
      if (width > 10 && line.length >= width) line = `${line.slice(0, width - 2)}…`;
      stream.write(`\r\x1b[2K${line}`);
      return;
    }
    const tenth = Math.floor(share * 10);
    if (force ? done === lastPrinted : tenth <= lastTenth) return;
    lastTenth = tenth;
    lastPrinted = done;
    stream.write(`${options.label}: ${text}\n`);
  };

  return {
    tick(steps = 1) {
      if (finished) return;
      done += steps;
      draw(false);
    },
    status(text: string) {
      if (finished) return;
      status = text;
      draw(false);
    },
    done() {
      if (finished) return;
      finished = true;
      draw(true);
      if (tty) stream.write("\n");
    },
  };
}
