import { NodeFileSystem } from '@openwork/fs-backend';
import type { SandboxPolicy } from '@openwork/sandbox';
import type { CheckedPath } from '../context/checked-path.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import type { SpillWriter } from '../spill/spill-writer.js';
import { FileScan, type GrepOutputMode } from './file-scan.js';
import { GrepCollector, type GrepFileResult, type GrepTally } from './grep-collector.js';
import type { IgnoreRules } from './ignore-rules.js';
import type { LineMatcher, LineMatcherSpec } from './line-matcher.js';
import { scanFileThroughBackend } from './scan-file-through-backend.js';
import type { ScanLimit } from './scan-limit.js';
import { GREP_MAX_LINES_PER_FILE } from './search-limits.js';
import { CONTROL_PENDING, CONTROL_SHOWN_FULL, CONTROL_STOP, LIST_CHUNK_CHARS } from './search-messages.js';
import { SearchWorkerPool } from './search-worker-pool.js';
import { walkSearchTree, type WalkedFile } from './walk-search-tree.js';

/** Files per message to a worker. */
const BATCH_FILES = 32;
/** Batches in flight per worker: enough to keep it busy, few enough to bound memory. */
const BATCHES_PER_WORKER = 2;

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

let searchIds = 0;

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
    const scan = new FileScan({
      mode: run.mode,
      matcher: run.matcher,
      shouldStop: () => run.limit.reached(),
      shownLimit: GREP_MAX_LINES_PER_FILE,
      listPrefix: `${file.displayPath}:`,
      listChunkChars: LIST_CHUNK_CHARS,
      onListText: (text) => collector.addListText(current, text, -1),
    });
    const outcome = await scanFileThroughBackend(run.session.filesystem, file.path, (region, last) => scan.region(region, last), run.signal, run.mode === 'files_with_matches');
    const result = scan.finish();
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

async function runWithWorkers(run: GrepRun, pool: SearchWorkerPool): Promise<GrepTally> {
  const searchId = (searchIds += 1);
  const control = new Int32Array(new SharedArrayBuffer(4 * (CONTROL_PENDING + pool.size)));
  const stop = () => {
    Atomics.store(control, CONTROL_STOP, 1);
    for (let slot = 0; slot < pool.size; slot += 1) Atomics.notify(control, CONTROL_PENDING + slot);
  };
  const collector = new GrepCollector({
    mode: run.mode,
    list: run.list,
    onShownFull: () => Atomics.store(control, CONTROL_SHOWN_FULL, 1),
    onListWritten: (slot, chars) => {
      if (slot < 0) return;
      Atomics.sub(control, CONTROL_PENDING + slot, chars);
      Atomics.notify(control, CONTROL_PENDING + slot);
    },
  });
  let failure: string | undefined;
  let inFlight = 0;
  const batchSeqs = new Map<number, number[]>();
  let wake: (() => void) | undefined;
  const signalChange = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const waitFor = async (condition: () => boolean) => {
    while (!condition()) await new Promise<void>((resolve) => (wake = resolve));
  };

  pool.attach(searchId, (message, slot) => {
    switch (message.type) {
      case 'list':
        collector.addListText(message.seq, message.text, slot);
        return;
      case 'progress': {
        const seqs = batchSeqs.get(message.batch) ?? [];
        const reported = new Map(message.results.map((result) => [result.seq, result]));
        for (const seq of seqs.splice(0, message.processed)) {
          const result = reported.get(seq);
          if (result?.list !== undefined) collector.addListText(seq, result.list, slot);
          collector.addResult(seq, result ?? NO_MATCH);
        }
        return;
      }
      case 'batch':
        batchSeqs.delete(message.batch);
        inFlight -= 1;
        signalChange();
        return;
      case 'failed':
        failure ??= message.message;
        if (slot < 0) inFlight = 0; // the pool closed: no more batch reports will come
        stop();
        signalChange();
        return;
      case 'ready':
        return;
    }
  });
  const timer = setTimeout(() => {
    stop();
    signalChange();
  }, Math.max(0, run.limit.deadline - Date.now() + 1));
  const onAbort = () => {
    stop();
    signalChange();
  };
  run.signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (let slot = 0; slot < pool.size; slot += 1) {
      pool.post(slot, { type: 'grep', searchId, spec: run.spec, mode: run.mode, deadline: run.limit.deadline, control: control.buffer as SharedArrayBuffer, slot });
    }
    let seq = 0;
    let batch: { seq: number; path: string; listPrefix: string }[] = [];
    let batchNumber = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      await waitFor(() => inFlight < pool.size * BATCHES_PER_WORKER || failure !== undefined);
      if (failure !== undefined) return;
      inFlight += 1;
      batchNumber += 1;
      batchSeqs.set(batchNumber, batch.map((file) => file.seq));
      pool.postBatch({ type: 'files', searchId, batch: batchNumber, files: batch });
      batch = [];
    };
    await walkSearchTree({
      session: run.session,
      policy: run.policy,
      root: run.root,
      rules: run.rules,
      shouldStop: () => run.limit.reached() || failure !== undefined,
      signal: run.signal,
      ...(run.accept === undefined ? {} : { accept: run.accept }),
      onFile: async (file) => {
        collector.expect(seq, file.displayPath);
        batch.push({ seq, path: file.path, listPrefix: `${file.displayPath}:` });
        seq += 1;
        if (batch.length >= BATCH_FILES) await flush();
      },
    });
    if (!run.limit.reached()) await flush();
    await waitFor(() => inFlight <= 0);
    if (failure !== undefined) throw new SearchWorkerFailure(`grep failed in a search worker: ${failure}`);
    return await collector.finish();
  } finally {
    clearTimeout(timer);
    run.signal.removeEventListener('abort', onAbort);
    stop();
    pool.detach(searchId);
  }
}
