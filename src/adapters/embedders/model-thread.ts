/**
 * The local model on a worker thread. onnxruntime-node runs a model synchronously on the
 * calling thread (its `run` only defers the call), so in-process embedding stopped the event
 * loop for the whole batch: a server answered nothing else meanwhile, and PGlite, which runs
 * in this same thread, could not open while the model loaded. On its own thread the model
 * loads while the store opens (a cold CLI `store` ~25% faster, docs/benchmarks.md) and runs
 * while requests that need no vector are answered.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { HindsightError } from "../../core/errors.js";
import { PACKAGE_ROOT } from "../../package-root.js";

export interface ModelThreadConfig {
  /** The model directory or Hub name, for messages and for a Hub load. */
  source: string;
  /** A local model directory; absent: load `source` from the Hub. */
  modelDir?: string;
  /** Its weights, relative to it (onnx/model_q4.onnx); absent: onnx/model.onnx. */
  modelFile?: string;
  sessionOptions?: Record<string, unknown>;
  pooling: "mean" | "cls";
  normalize: boolean;
  batchSize: number;
}

/** What went wrong in the worker: the package, the model's load, or a run. */
type Stage = "import" | "load" | "run";
type Reply =
  | { id: number; vectors: Float32Array; width: number }
  | { id: number; error: { stage: Stage; message: string } };

interface Pending {
  resolve(vectors: Float32Array[]): void;
  reject(error: Error): void;
}

/**
 * The worker's script, shipped as a file of its own: beside this module in src/ and in tsc's
 * dist/, but not beside the CLI's bundle (where this module's code is part of a chunk).
 */
const WORKER_URL = import.meta.url.endsWith(".ts")
  ? new URL("./model-worker.mjs", import.meta.url)
  : pathToFileURL(join(PACKAGE_ROOT, "dist", "adapters", "embedders", "model-worker.mjs"));

export class ModelThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(
    private readonly config: ModelThreadConfig,
    /** The error for a failure in the worker at `stage`. */
    private readonly failure: (stage: Stage, message: string) => HindsightError,
  ) {}

  /** Starts the worker, and with it the model's load, unless it runs already. */
  start(): void {
    if (this.worker) return;
    const worker = new Worker(WORKER_URL, { workerData: this.config });
    // An idle model never keeps the process alive; a pending embedding does (see track).
    worker.unref();
    worker.on("message", (reply: Reply) => this.receive(worker, reply));
    worker.on("error", (error) =>
      this.fail(worker, this.failure("run", `the model's thread failed: ${error.message}`)),
    );
    worker.on("exit", (code) =>
      this.fail(worker, this.failure("run", `the model's thread exited (code ${code})`)),
    );
    this.worker = worker;
  }

  /** One vector per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.start();
    const worker = this.worker!;
    const id = this.nextId++;
    return new Promise<Float32Array[]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.track(worker);
      worker.postMessage({ id, texts });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.fail(worker, this.failure("run", "the embedder was closed"));
    await worker.terminate();
  }

  private receive(worker: Worker, reply: Reply): void {
    if ("error" in reply && reply.id === 0) {
      // The model did not load: every waiting call fails with why, and a later call starts a
      // new thread (the package installed or the model fetched meanwhile).
      this.fail(worker, this.failure(reply.error.stage, reply.error.message));
      void worker.terminate();
      return;
    }
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    this.track(worker);
    if ("error" in reply) {
      pending.reject(this.failure(reply.error.stage, reply.error.message));
      return;
    }
    const { vectors, width } = reply;
    // Copies, so that a vector kept (a cache, a pending write) does not hold the whole batch.
    const rows: Float32Array[] = [];
    for (let start = 0; start < vectors.length; start += width) {
      rows.push(vectors.slice(start, start + width));
    }
    pending.resolve(rows);
  }

  /** Rejects every waiting call and forgets the worker, if it is still the current one. */
  private fail(worker: Worker, error: HindsightError): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const call of waiting) call.reject(error);
  }

  /** The worker holds the process open exactly while a call waits for it. */
  private track(worker: Worker): void {
    if (this.pending.size > 0) worker.ref();
    else worker.unref();
  }
}
