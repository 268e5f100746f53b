import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FromSearchWorker, ToSearchWorker } from './search-messages.js';

/** At most this many workers, one per core below it. */
const MAX_WORKERS = 4;
/** Idle workers are ended after this long without a search: each holds a V8 isolate of its own (decision 0107). */
const IDLE_MILLISECONDS = 15_000;
/**
 * Each worker's heap bounds (decision 0107): a small young generation (V8's default lets each
 * isolate grow it to tens of MB, kept while the worker lives) and an old generation far above what
 * a batch needs (its paths, matches and counts; file bytes are buffers outside the heap). A worker
 * that would pass it ends, and its batches are searched on the calling thread, as for any worker
 * that ends.
 */
const WORKER_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 128 } as const;
/** A worker that does not say it is ready within this long is given up on. */
const START_MILLISECONDS = 30_000;

type SearchListener = (message: FromSearchWorker, slot: number) => void;

let searchIds = 0;

/** A new id for a search (grep's or glob's) whose messages `attach` routes. */
export function newSearchId(): number {
  searchIds += 1;
  return searchIds;
}

let workerEntry: URL = new URL('./search-worker.js', import.meta.url);

/**
 * Where the worker's script is. The default is the compiled `search-worker.js` next to this
 * module; tests that run the TypeScript sources point it at a transpiled copy.
 * @internal not exported from the package.
 */
export function setSearchWorkerEntry(entry: URL): void {
  workerEntry = entry;
  SearchWorkerPool.reset();
}

interface PoolWorker {
  readonly worker: Worker;
  /** Batches sent and not reported back yet. */
  outstanding: number;
}

/**
 * The worker threads grep searches with (§7.6 speed: "use both cores where it pays"), shared by
 * every search in the process and kept warm between calls, ended after 15 s of idleness.
 * Workers are referenced only while a search runs, so idle ones never keep a process alive. When
 * they cannot start (no compiled worker script, the native engine fails in a thread), `shared()`
 * resolves to `undefined` and grep searches on the calling thread instead.
 */
export class SearchWorkerPool {
  static #shared: Promise<SearchWorkerPool | undefined> | undefined;
  readonly #workers: readonly PoolWorker[];
  readonly #listeners = new Map<number, SearchListener>();
  #idleTimer: NodeJS.Timeout | undefined;
  #closed = false;

  private constructor(workers: readonly PoolWorker[]) {
    this.#workers = workers;
    workers.forEach((entry, slot) => {
      entry.worker.on('message', (message: FromSearchWorker) => this.#deliver(message, slot));
      entry.worker.on('error', () => this.#close());
      entry.worker.on('exit', () => this.#close());
    });
    this.#scheduleIdle();
  }

  /** The process's pool, started on first use; `undefined` when workers are not available. */
  static shared(): Promise<SearchWorkerPool | undefined> {
    SearchWorkerPool.#shared ??= SearchWorkerPool.#start();
    return SearchWorkerPool.#shared;
  }

  /** Ends the current pool (if any); the next `shared()` starts a new one. */
  static reset(): void {
    const current = SearchWorkerPool.#shared;
    SearchWorkerPool.#shared = undefined;
    void current?.then((pool) => {
      if (pool !== undefined) pool.#close();
    });
  }

  static async #start(): Promise<SearchWorkerPool | undefined> {
    const count = Math.max(1, Math.min(MAX_WORKERS, availableParallelism()));
    const started = await Promise.all(Array.from({ length: count }, () => startWorker(workerEntry)));
    const workers = started.filter((worker): worker is Worker => worker !== undefined);
    if (workers.length < started.length) {
      // Remembered: grep searches on the calling thread from now on (no retry per call).
      for (const worker of workers) void worker.terminate();
      return undefined;
    }
    return new SearchWorkerPool(workers.map((worker) => ({ worker, outstanding: 0 })));
  }

  get size(): number {
    return this.#workers.length;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Routes the messages of search `searchId` to `listener` until `detach`. */
  attach(searchId: number, listener: SearchListener): void {
    if (this.#listeners.size === 0) {
      for (const { worker } of this.#workers) worker.ref();
      if (this.#idleTimer !== undefined) clearTimeout(this.#idleTimer);
      this.#idleTimer = undefined;
    }
    this.#listeners.set(searchId, listener);
  }

  detach(searchId: number): void {
    this.#listeners.delete(searchId);
    for (const { worker } of this.#workers) worker.postMessage({ type: 'end', searchId } satisfies ToSearchWorker);
    if (this.#listeners.size === 0) {
      for (const { worker } of this.#workers) worker.unref();
      this.#scheduleIdle();
    }
  }

  /** Sends `message` to the worker in `slot`. */
  post(slot: number, message: ToSearchWorker): void {
    this.#workers[slot]!.worker.postMessage(message);
  }

  /** Sends a batch (of files to search, or of paths to `lstat`) to the least busy worker; returns its slot. */
  postBatch(message: Extract<ToSearchWorker, { type: 'files' | 'stat' }>): number {
    let slot = 0;
    for (let index = 1; index < this.#workers.length; index += 1) {
      if (this.#workers[index]!.outstanding < this.#workers[slot]!.outstanding) slot = index;
    }
    this.#workers[slot]!.outstanding += 1;
    this.#workers[slot]!.worker.postMessage(message);
    return slot;
  }

  /** Batches sent to the worker in `slot` and not reported back yet. */
  outstanding(slot: number): number {
    return this.#workers[slot]!.outstanding;
  }

  #deliver(message: FromSearchWorker, slot: number): void {
    if (message.type === 'ready') return;
    if (message.type === 'batch' || message.type === 'stats') this.#workers[slot]!.outstanding -= 1;
    this.#listeners.get(message.searchId)?.(message, slot);
  }

  #scheduleIdle(): void {
    this.#idleTimer = setTimeout(() => {
      if (this.#listeners.size === 0) SearchWorkerPool.#retire(this);
    }, IDLE_MILLISECONDS);
    this.#idleTimer.unref();
  }

  static #retire(pool: SearchWorkerPool): void {
    void SearchWorkerPool.#shared?.then((current) => {
      if (current === pool) SearchWorkerPool.#shared = undefined;
    });
    pool.#close();
  }

  /** A worker died or the pool retired: end every worker; searches still attached are told. */
  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#idleTimer !== undefined) clearTimeout(this.#idleTimer);
    void SearchWorkerPool.#shared?.then((current) => {
      if (current === this) SearchWorkerPool.#shared = undefined;
    });
    for (const { worker } of this.#workers) void worker.terminate();
    for (const [searchId, listener] of this.#listeners) {
      listener({ type: 'failed', searchId, message: 'a search worker thread ended unexpectedly' }, -1);
    }
    this.#listeners.clear();
  }
}

/** A started worker that reported `ready`, or `undefined` when it failed to start. */
function startWorker(entry: URL): Promise<Worker | undefined> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(entry, { resourceLimits: WORKER_RESOURCE_LIMITS });
    } catch {
      resolve(undefined);
      return;
    }
    const timer = setTimeout(() => finish(false), START_MILLISECONDS);
    const finish = (ready: boolean) => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onFailure);
      worker.off('exit', onFailure);
      if (ready) {
        worker.unref();
        resolve(worker);
      } else {
        void worker.terminate();
        resolve(undefined);
      }
    };
    const onMessage = (message: FromSearchWorker) => {
      if (message.type === 'ready') finish(true);
    };
    const onFailure = () => finish(false);
    worker.on('message', onMessage);
    worker.on('error', onFailure);
    worker.on('exit', onFailure);
  });
}
