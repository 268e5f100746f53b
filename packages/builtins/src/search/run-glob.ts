import { NodeFileSystem } from '@openwork/fs-backend';
import type { SandboxPolicy } from '@openwork/sandbox';
import type { CheckedPath } from '../context/checked-path.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import type { SpillWriter } from '../spill/spill-writer.js';
import type { IgnoreRules } from './ignore-rules.js';
import { BATCH_SEPARATOR, type FromSearchWorker } from './search-messages.js';
import { newSearchId, SearchWorkerPool } from './search-worker-pool.js';
import { fileMtime } from './file-mtime.js';
import { NewestFiles, type DatedFile } from './newest-files.js';
import type { ScanLimit } from './scan-limit.js';
import { GLOB_MAX_RESULTS } from './search-limits.js';
import { walkSearchTree, type WalkedFile } from './walk-search-tree.js';

/** `lstat` calls in flight at once (they overlap in libuv's thread pool). */
const STATS_IN_FLIGHT = 64;

export interface GlobRun {
  readonly session: ToolSessionContext;
  readonly policy: SandboxPolicy;
  readonly root: CheckedPath;
  readonly rules: IgnoreRules;
  readonly accept: (relativePath: string) => boolean;
  readonly limit: ScanLimit;
  readonly signal: AbortSignal;
  readonly list: SpillWriter | undefined;
}

/** The bounded result of a glob. */
export interface GlobTally {
  /** The newest files (at most 100), newest first. */
  readonly newest: readonly DatedFile[];
  /** Every matching file the walk reached. */
  readonly total: number;
}

/** Full-list text gathered before one `SpillWriter.write` (one write per entry cost 0.17 ms a file). */
const LIST_CHUNK_CHARS = 16 * 1024;

/**
 * §7.7: walks like grep, keeps the newest 100 matching files in a heap of 100 (each matching file
 * is `lstat`ed for its time; files whose time cannot be read rank last) and writes every match to
 * the full list in walk order, so memory does not grow with the number of matches. On the plain
 * `NodeFileSystem` the `lstat`s run on the search workers while this thread walks
 * (`StatsOnWorkers`), or synchronously here when there are none: a thread-pool round trip per
 * file cost more than the system call (glob's profile).
 */
export async function runGlob(run: GlobRun): Promise<GlobTally> {
  const newest = new NewestFiles(GLOB_MAX_RESULTS);
  const stats = new Set<Promise<void>>();
  const filesystem = run.session.filesystem;
  const local = Object.getPrototypeOf(filesystem) === NodeFileSystem.prototype;
  const pool = local ? await SearchWorkerPool.shared() : undefined;
  const onWorkers = pool !== undefined && !pool.closed ? new StatsOnWorkers(pool, newest) : undefined;
  try {
    return await walkAndDate(run, newest, stats, local, onWorkers);
  } finally {
    onWorkers?.close();
  }
}

async function walkAndDate(run: GlobRun, newest: NewestFiles, stats: Set<Promise<void>>, local: boolean, onWorkers: StatsOnWorkers | undefined): Promise<GlobTally> {
  const filesystem = run.session.filesystem;
  let total = 0;
  let pending = '';
  const list = run.list;
  /** Offers `file` to the heap with its time; a promise when the walk must wait first. */
  const date = (file: WalkedFile, seq: number): Promise<void> | undefined => {
    if (onWorkers !== undefined) return onWorkers.add(file.path, file.displayPath, seq);
    if (local) {
      newest.offer({ displayPath: file.displayPath, mtimeMs: fileMtime(file.path), seq });
      return undefined;
    }
    const stat: Promise<void> = filesystem.lstat(file.path).then(
      (found) => newest.offer({ displayPath: file.displayPath, mtimeMs: Number.isFinite(found.mtimeMs) ? found.mtimeMs : undefined, seq }),
      () => newest.offer({ displayPath: file.displayPath, mtimeMs: undefined, seq }),
    );
    stats.add(stat);
    void stat.finally(() => stats.delete(stat));
    return stats.size >= STATS_IN_FLIGHT ? Promise.race(stats) : undefined;
  };
  await walkSearchTree({
    session: run.session,
    policy: run.policy,
    root: run.root,
    rules: run.rules,
    shouldStop: () => run.limit.reached(),
    signal: run.signal,
    accept: run.accept,
    // Synchronous but for a list write or a batch sent: an `await` per file was a cost of its own.
    onFile: (file) => {
      const seq = total;
      total += 1;
      let written: Promise<void> | undefined;
      if (list !== undefined) {
        pending += `${file.displayPath}\n`;
        if (pending.length >= LIST_CHUNK_CHARS) {
          const text = pending;
          pending = '';
          written = list.write(text);
        }
      }
      const dated = date(file, seq);
      if (written === undefined) return dated;
      return dated === undefined ? written : written.then(() => dated);
    },
  });
  await Promise.all(stats);
  await onWorkers?.finish();
  if (list !== undefined && pending !== '') await list.write(pending);
  return { newest: newest.sorted(), total };
}

/** Paths per `stat` message to a worker. */
const STAT_BATCH_FILES = 512;
/** Batches in flight per worker (memory: their display paths wait here). */
const STAT_BATCHES_PER_WORKER = 4;

/** A batch of matches sent to be dated, waiting for its answer. */
interface StatBatch {
  readonly paths: readonly string[];
  readonly displayPaths: readonly string[];
  readonly firstSeq: number;
}

/**
 * The `lstat` of each match (its time, §7.7) on the search workers, a batch of paths at a time,
 * while this thread walks: a third of glob `**\/*` was those system calls on one thread, where
 * ripgrep walks on every core (search performance). Answers are offered to the heap in any order: the heap
 * orders by time, then walk order (`seq`), so the result is the same. If the pool closes (a
 * worker ended), the batches without an answer, and every later one, are dated on this thread.
 */
class StatsOnWorkers {
  readonly #pool: SearchWorkerPool;
  readonly #newest: NewestFiles;
  readonly #id = newSearchId();
  readonly #waiting = new Map<number, StatBatch>();
  #batch = 0;
  #paths: string[] = [];
  #displayPaths: string[] = [];
  #firstSeq = 0;
  #wake: (() => void) | undefined;
  #failed = false;

  constructor(pool: SearchWorkerPool, newest: NewestFiles) {
    this.#pool = pool;
    this.#newest = newest;
    pool.attach(this.#id, (message, slot) => this.#onMessage(message, slot));
  }

  /** A promise when a batch was sent (and the walk should wait for room), else `undefined`. */
  add(path: string, displayPath: string, seq: number): Promise<void> | undefined {
    if (this.#paths.length === 0) this.#firstSeq = seq;
    this.#paths.push(path);
    this.#displayPaths.push(displayPath);
    return this.#paths.length >= STAT_BATCH_FILES ? this.#send() : undefined;
  }

  /** Sends what is left and waits for every answer. */
  async finish(): Promise<void> {
    await this.#send();
    await this.#until(() => this.#waiting.size === 0);
  }

  close(): void {
    this.#pool.detach(this.#id);
  }

  async #send(): Promise<void> {
    if (this.#paths.length === 0) return;
    await this.#until(() => this.#waiting.size < this.#pool.size * STAT_BATCHES_PER_WORKER);
    const batch: StatBatch = { paths: this.#paths, displayPaths: this.#displayPaths, firstSeq: this.#firstSeq };
    this.#paths = [];
    this.#displayPaths = [];
    if (this.#failed || this.#pool.closed) {
      this.#dateHere(batch);
      return;
    }
    this.#batch += 1;
    this.#waiting.set(this.#batch, batch);
    this.#pool.postBatch({ type: 'stat', searchId: this.#id, batch: this.#batch, paths: batch.paths.join(BATCH_SEPARATOR) });
  }

  async #until(condition: () => boolean): Promise<void> {
    while (!condition() && !this.#failed) await new Promise<void>((resolve) => (this.#wake = resolve));
  }

  #onMessage(message: FromSearchWorker, slot: number): void {
    if (message.type === 'failed' && slot < 0) {
      this.#failed = true;
      for (const batch of this.#waiting.values()) this.#dateHere(batch);
      this.#waiting.clear();
    }
    if (message.type === 'stats') {
      const batch = this.#waiting.get(message.batch);
      if (batch !== undefined) {
        this.#waiting.delete(message.batch);
        batch.displayPaths.forEach((displayPath, index) => this.#offer(displayPath, batch.firstSeq + index, message.mtimes[index]));
      }
    }
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /** Dates a batch with `lstat` on this thread (the pool is gone). */
  #dateHere(batch: StatBatch): void {
    batch.paths.forEach((path, index) => this.#offer(batch.displayPaths[index]!, batch.firstSeq + index, fileMtime(path)));
  }

  #offer(displayPath: string, seq: number, mtimeMs: number | undefined): void {
    this.#newest.offer({ displayPath, mtimeMs: mtimeMs !== undefined && Number.isFinite(mtimeMs) ? mtimeMs : undefined, seq });
  }
}
