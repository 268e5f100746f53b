import { NodeFileSystem } from '@openwork/fs-backend';
import type { SandboxPolicy } from '@openwork/sandbox';
import type { CheckedPath } from '../context/checked-path.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import type { SpillWriter } from '../spill/spill-writer.js';
import { FileScan, type GrepOutputMode, type ListOutput } from './file-scan.js';
import { GrepCollector, type GrepFileResult, type GrepTally } from './grep-collector.js';
import type { IgnoreRules } from './ignore-rules.js';
import type { LineMatcher, LineMatcherSpec } from './line-matcher.js';
import { scanFileThroughBackend } from './scan-file-through-backend.js';
import type { ScanLimit } from './scan-limit.js';
import { GREP_MAX_LINES_PER_FILE } from './search-limits.js';
import { BATCH_SEPARATOR, CONTROL_PENDING, CONTROL_SHOWN_FULL, CONTROL_STOP, LIST_CHUNK_BYTES, type FromSearchWorker } from './search-messages.js';
import { newSearchId, SearchWorkerPool } from './search-worker-pool.js';
import { walkSearchTree, type WalkedFile } from './walk-search-tree.js';

/** Files per message to a worker. */
const BATCH_FILES = 32;
/** Batches in flight per worker: enough to keep it busy, few enough to bound memory. */
const BATCHES_PER_WORKER = 8;

export interface GrepRun {
  readonly session: ToolSessionContext;
  readonly policy: SandboxPolicy;
  /** The checked search root. */
  readonly root: CheckedPath;
  readonly rootIsDirectory: boolean;
  readonly rules: IgnoreRules;
  readonly spec: LineMatcherSpec;
  /** The same pattern compiled on this thread. */
  readonly matcher: LineMatcher;
  readonly mode: GrepOutputMode;
  /** The glob filter on paths relative to the root (§7.6), if any. */
  readonly accept: ((relativePath: string) => boolean) | undefined;
  readonly limit: ScanLimit;
  readonly signal: AbortSignal;
  readonly list: SpillWriter | undefined;
}

/** Thrown when a search worker failed: the call fails with `execution_failed`. */
export class SearchWorkerFailure extends Error {}

const NO_MATCH: GrepFileResult = Object.freeze({ count: 0, shown: [], outcome: 'searched', stopped: false });

/**
 * Runs one grep (§7.6) and returns its tally: a directory is walked on this thread and its files
 * are searched by the worker pool when the session reads local files with `NodeFileSystem`;
 * a single file, another file system, or no workers: searched here, file after file.
 */
export async function runGrep(run: GrepRun): Promise<GrepTally> {
  const localFiles = Object.getPrototypeOf(run.session.filesystem) === NodeFileSystem.prototype;
  const pool = run.rootIsDirectory && localFiles ? await SearchWorkerPool.shared() : undefined;
  if (pool !== undefined && !pool.closed) return runWithWorkers(run, pool);
  return runOnThisThread(run);
}

async function runOnThisThread(run: GrepRun): Promise<GrepTally> {
  const collector = new GrepCollector({ mode: run.mode, list: run.list });
  let seq = 0;
  const searchFile = async (file: Pick<WalkedFile, 'path' | 'displayPath'>) => {
    const current = seq;
    seq += 1;
    collector.expect(current, file.displayPath);
    const list = new CollectedList((bytes) => collector.addListBytes(current, bytes, -1));
    const scan = new FileScan({
      mode: run.mode,
      matcher: run.matcher,
      shouldStop: () => run.limit.reached(),
      shownLimit: GREP_MAX_LINES_PER_FILE,
      listPrefix: `${file.displayPath}:`,
      list,
    });
    const outcome = await scanFileThroughBackend(run.session.filesystem, file.path, (region, last) => scan.region(region, last), run.signal, run.mode === 'files_with_matches');
    const result = scan.finish();
    list.end();
    collector.addResult(current, {
      count: outcome === 'searched' ? result.count : 0,
      shown: outcome === 'searched' ? result.shown : [],
      outcome,
      stopped: result.stopped,
    });
    // Write this file's list before reading the next: memory holds one file's worth at most.
    await collector.settle();
  };
  if (!run.rootIsDirectory) {
    // A file given as the path is searched even if hidden or ignored; the glob still applies to its name.
    const name = run.root.path.slice(run.root.path.lastIndexOf('/') + 1);
    if (!run.limit.reached() && (run.accept === undefined || run.accept(name))) await searchFile(run.root);
  } else {
    await walkSearchTree({
      session: run.session,
      policy: run.policy,
      root: run.root,
      rules: run.rules,
      shouldStop: () => run.limit.reached(),
      signal: run.signal,
      ...(run.accept === undefined ? {} : { accept: run.accept }),
      onFile: searchFile,
    });
  }
  return collector.finish();
}

/** One file's full list on this thread, handed to the collector a buffer at a time. */
class CollectedList implements ListOutput {
  buffer = Buffer.alloc(0);
  length = 0;
  readonly #deliver: (bytes: Uint8Array) => void;

  constructor(deliver: (bytes: Uint8Array) => void) {
    this.#deliver = deliver;
  }

  ensure(bytes: number): void {
    if (this.buffer.length - this.length >= bytes) return;
    this.end();
    this.buffer = Buffer.allocUnsafe(Math.max(LIST_CHUNK_BYTES, bytes));
  }

  /** Hands over what is written (the collector keeps it until written: a new buffer follows). */
  end(): void {
    if (this.length > 0) this.#deliver(this.buffer.subarray(0, this.length));
    this.buffer = Buffer.alloc(0);
    this.length = 0;
  }
}

async function runWithWorkers(run: GrepRun, pool: SearchWorkerPool): Promise<GrepTally> {
  const search = new WorkerSearch(pool);
  const collector = collectorForWorkers(run, search);
  pool.attach(search.id, (message, slot) => onWorkerMessage(search, collector, message, slot));
  const releaseStops = stopAtDeadlineOrAbort(run, search);
  try {
    startWorkers(run, search);
    await walkIntoBatches(run, search, collector);
    await search.waitFor(() => search.inFlight <= 0);
    if (search.failure !== undefined) throw new SearchWorkerFailure(`grep failed in a search worker: ${search.failure}`);
    return await collector.finish();
  } finally {
    releaseStops();
    search.stop();
    pool.detach(search.id);
  }
}

/** One grep's state shared with the pool: the control words, the batches in flight, the first failure. */
class WorkerSearch {
  readonly id = newSearchId();
  readonly pool: SearchWorkerPool;
  readonly control: Int32Array;
  /** The file seqs of each batch in flight, by batch number. */
  readonly batchSeqs = new Map<number, number[]>();
  inFlight = 0;
  failure: string | undefined;
  #wake: (() => void) | undefined;

  constructor(pool: SearchWorkerPool) {
    this.pool = pool;
    this.control = new Int32Array(new SharedArrayBuffer(4 * (CONTROL_PENDING + pool.size)));
  }

  /** Tells every worker to stop, waking any that waits for its list to be written. */
  stop(): void {
    Atomics.store(this.control, CONTROL_STOP, 1);
    for (let slot = 0; slot < this.pool.size; slot += 1) Atomics.notify(this.control, CONTROL_PENDING + slot);
  }

  /** Wakes whoever waits in `waitFor` to look at the state again. */
  signalChange(): void {
    const resume = this.#wake;
    this.#wake = undefined;
    resume?.();
  }

  async waitFor(condition: () => boolean): Promise<void> {
    while (!condition()) await new Promise<void>((resolve) => (this.#wake = resolve));
  }
}

/** The collector, telling the workers when 250 lines are shown and how much of their list is written (bounded memory). */
function collectorForWorkers(run: GrepRun, search: WorkerSearch): GrepCollector {
  const { control } = search;
  return new GrepCollector({
    mode: run.mode,
    list: run.list,
    onShownFull: () => Atomics.store(control, CONTROL_SHOWN_FULL, 1),
    onListWritten: (slot, chars) => {
      if (slot < 0) return;
      Atomics.sub(control, CONTROL_PENDING + slot, chars);
      Atomics.notify(control, CONTROL_PENDING + slot);
    },
  });
}

/** One message of a worker (or of the pool, `slot < 0`) about this search. */
function onWorkerMessage(search: WorkerSearch, collector: GrepCollector, message: FromSearchWorker, slot: number): void {
  switch (message.type) {
    case 'progress': {
      const seqs = search.batchSeqs.get(message.batch) ?? [];
      const reported = new Map(message.results.map((result) => [result.seq, result]));
      for (const seq of seqs.splice(0, message.processed)) {
        const result = reported.get(seq);
        if (result?.list !== undefined) collector.addListBytes(seq, result.list, slot);
        collector.addResult(seq, result ?? NO_MATCH);
      }
      if (message.piece !== undefined) collector.addListBytes(message.piece.seq, message.piece.bytes, slot);
      return;
    }
    case 'batch':
      search.batchSeqs.delete(message.batch);
      search.inFlight -= 1;
      search.signalChange();
      return;
    case 'failed':
      search.failure ??= message.message;
      if (slot < 0) search.inFlight = 0; // the pool closed: no more batch reports will come
      search.stop();
      search.signalChange();
      return;
    case 'ready':
      return;
  }
}

/** Stops the workers at the deadline or on abort; returns what removes both triggers. */
function stopAtDeadlineOrAbort(run: GrepRun, search: WorkerSearch): () => void {
  const timer = setTimeout(() => {
    search.stop();
    search.signalChange();
  }, Math.max(0, run.limit.deadline - Date.now() + 1));
  const onAbort = () => {
    search.stop();
    search.signalChange();
  };
  run.signal.addEventListener('abort', onAbort, { once: true });
  return () => {
    clearTimeout(timer);
    run.signal.removeEventListener('abort', onAbort);
  };
}

/** Gives every worker the pattern, the mode, the deadline and its slot of the control words. */
function startWorkers(run: GrepRun, search: WorkerSearch): void {
  const { pool } = search;
  for (let slot = 0; slot < pool.size; slot += 1) {
    pool.post(slot, { type: 'grep', searchId: search.id, spec: run.spec, mode: run.mode, deadline: run.limit.deadline, control: search.control.buffer as SharedArrayBuffer, slot });
  }
}

/** Walks the tree on this thread and sends its files in batches, at most `BATCHES_PER_WORKER` per worker in flight. */
async function walkIntoBatches(run: GrepRun, search: WorkerSearch, collector: GrepCollector): Promise<void> {
  const { pool } = search;
  const content = run.mode === 'content';
  let seq = 0;
  let paths: string[] = [];
  let displayPaths: string[] = [];
  let batchNumber = 0;
  const flush = async () => {
    if (paths.length === 0) return;
    await search.waitFor(() => search.inFlight < pool.size * BATCHES_PER_WORKER || search.failure !== undefined);
    if (search.failure !== undefined) return;
    search.inFlight += 1;
    batchNumber += 1;
    const firstSeq = seq - paths.length;
    search.batchSeqs.set(batchNumber, Array.from({ length: paths.length }, (_, index) => firstSeq + index));
    pool.postBatch({ type: 'files', searchId: search.id, batch: batchNumber, firstSeq, paths: paths.join(BATCH_SEPARATOR), displayPaths: displayPaths.join(BATCH_SEPARATOR) });
    paths = [];
    displayPaths = [];
  };
  await walkSearchTree({
    session: run.session,
    policy: run.policy,
    root: run.root,
    rules: run.rules,
    shouldStop: () => run.limit.reached() || search.failure !== undefined,
    signal: run.signal,
    ...(run.accept === undefined ? {} : { accept: run.accept }),
    onFile: (file) => {
      collector.expect(seq, file.displayPath);
      paths.push(file.path);
      if (content) displayPaths.push(file.displayPath);
      seq += 1;
      return paths.length >= BATCH_FILES ? flush() : undefined;
    },
  });
  if (!run.limit.reached()) await flush();
}
