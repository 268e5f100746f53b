// Entry of a grep worker thread (§7.6 speed: "use both cores"). It reads and searches the files
// the main thread sends, in order, and reports each file's count, its first lines for display and
// (content mode) its full list. Nothing here decides what the model sees: that is the collector's.
import { parentPort } from 'node:worker_threads';
import { fileMtime } from './file-mtime.js';
import { FileScan, type GrepOutputMode, type ListOutput } from './file-scan.js';
import { LineMatcher } from './line-matcher.js';
import { CheckedFolders, scanLocalFile } from './scan-local-file.js';
import { GREP_MAX_LINES_PER_FILE } from './search-limits.js';
import {
  BATCH_SEPARATOR,
  CONTROL_PENDING,
  CONTROL_SHOWN_FULL,
  CONTROL_STOP,
  LIST_CHUNK_BYTES,
  PENDING_LIST_BYTES,
  type FromSearchWorker,
  type ToSearchWorker,
  type WorkerFileResult,
} from './search-messages.js';

interface Search {
  readonly matcher: LineMatcher;
  readonly mode: GrepOutputMode;
  readonly deadline: number;
  readonly control: Int32Array;
  readonly slot: number;
}

const EMPTY = Buffer.alloc(0);

const port = parentPort;
if (port === null) throw new Error('search-worker.js runs as a worker thread only');
const searches = new Map<number, Search>();

function post(message: FromSearchWorker): void {
  port!.postMessage(message);
}

function stopRequested(search: Search): boolean {
  return Atomics.load(search.control, CONTROL_STOP) !== 0 || Date.now() > search.deadline;
}

/** Backpressure: wait while too much of this worker's full list is not written yet. */
function waitForRoom(search: Search): void {
  const index = CONTROL_PENDING + search.slot;
  for (;;) {
    const pending = Atomics.load(search.control, index);
    if (pending <= PENDING_LIST_BYTES || stopRequested(search)) return;
    Atomics.wait(search.control, index, pending, 50);
  }
}

/**
 * The files of the current batch searched but not reported yet, and the buffer their full lists
 * are written into (content mode): each file's list is a part of it, and the buffer is transferred
 * with the report, so no list is copied or turned into a string on its way to the spill file.
 */
class BatchReport implements ListOutput {
  readonly #searchId: number;
  readonly #batch: number;
  readonly #search: Search;
  #processed = 0;
  #results: WorkerFileResult[] = [];
  buffer = EMPTY;
  length = 0;
  /** Where the list of the file being searched starts in `buffer`. */
  #fileStart = 0;
  /** The file being searched (its seq), while its list is written. */
  #current: number | undefined;

  constructor(search: Search, searchId: number, batch: number) {
    this.#search = search;
    this.#searchId = searchId;
    this.#batch = batch;
  }

  /** Starts the list of file `seq`. */
  begin(seq: number): void {
    this.#current = seq;
    this.#fileStart = this.length;
  }

  /** The file is searched; `undefined` when it had no match (nothing to report but its number). */
  add(result: Omit<WorkerFileResult, 'list'> | undefined): void {
    this.#processed += 1;
    this.#current = undefined;
    const list = this.length > this.#fileStart ? this.buffer.subarray(this.#fileStart, this.length) : undefined;
    this.#fileStart = this.length;
    if (result !== undefined) this.#results.push(list === undefined ? result : { ...result, list });
    // A full buffer goes now: the collector can write it while this worker goes on.
    if (this.length >= LIST_CHUNK_BYTES) this.flush();
  }

  /** Room for `bytes` more: a full buffer is reported first (with the current file's list so far). */
  ensure(bytes: number): void {
    if (this.buffer.length - this.length >= bytes) return;
    if (this.length > 0) {
      const piece = this.#current !== undefined && this.hasList() ? { seq: this.#current, bytes: this.buffer.subarray(this.#fileStart, this.length) } : undefined;
      this.#post(piece);
    }
    this.buffer = Buffer.allocUnsafeSlow(Math.max(LIST_CHUNK_BYTES, bytes));
  }

  /** Whether the file being searched has full-list bytes in the buffer. */
  hasList(): boolean {
    return this.length > this.#fileStart;
  }

  /** Reports what is searched (the buffer, if any of it is used, goes with it). */
  flush(): void {
    if (this.#processed === 0 && this.length === 0) return;
    this.#post(undefined);
  }

  #post(piece: { readonly seq: number; readonly bytes: Uint8Array } | undefined): void {
    const message: FromSearchWorker = {
      type: 'progress',
      searchId: this.#searchId,
      batch: this.#batch,
      processed: this.#processed,
      results: this.#results,
      ...(piece === undefined ? {} : { piece }),
    };
    const sent = this.length;
    if (sent > 0) {
      Atomics.add(this.#search.control, CONTROL_PENDING + this.#search.slot, sent);
      port!.postMessage(message, [this.buffer.buffer]);
      // Transferred: a new buffer is taken when the next list needs room.
      this.buffer = EMPTY;
    } else port!.postMessage(message);
    this.#processed = 0;
    this.#results = [];
    this.length = 0;
    this.#fileStart = 0;
    if (sent > 0) waitForRoom(this.#search);
  }
}

function searchFile(search: Search, seq: number, path: string, displayPath: string, report: BatchReport, folders: CheckedFolders): void {
  report.begin(seq);
  const scan = new FileScan({
    mode: search.mode,
    matcher: search.matcher,
    shouldStop: () => stopRequested(search),
    shownLimit: Atomics.load(search.control, CONTROL_SHOWN_FULL) === 0 ? GREP_MAX_LINES_PER_FILE : 0,
    listPrefix: `${displayPath}:`,
    list: report,
  });
  const outcome = scanLocalFile(path, (region, last) => scan.region(region, last), search.mode === 'files_with_matches', folders);
  const result = scan.finish();
  const count = outcome === 'searched' ? result.count : 0;
  if (count === 0 && !result.stopped && !report.hasList()) return report.add(undefined);
  report.add({ seq, count, shown: outcome === 'searched' ? result.shown : [], outcome, stopped: result.stopped });
}

function handle(message: ToSearchWorker): void {
  switch (message.type) {
    case 'grep': {
      try {
        searches.set(message.searchId, {
          matcher: LineMatcher.compile(message.spec),
          mode: message.mode,
          deadline: message.deadline,
          control: new Int32Array(message.control),
          slot: message.slot,
        });
      } catch (error) {
        post({ type: 'failed', searchId: message.searchId, message: error instanceof Error ? error.message : String(error) });
      }
      return;
    }
    case 'files': {
      const search = searches.get(message.searchId);
      if (search !== undefined) {
        const report = new BatchReport(search, message.searchId, message.batch);
        const paths = message.paths.split(BATCH_SEPARATOR);
        const displayPaths = search.mode === 'content' ? message.displayPaths.split(BATCH_SEPARATOR) : undefined;
        // No descriptor is kept between batches: a folder read later is opened and checked again.
        const folders = new CheckedFolders();
        try {
          for (let index = 0; index < paths.length; index += 1) {
            // §7.6: the limit and cancellation are checked per file; files not started are not reported.
            if (stopRequested(search)) break;
            searchFile(search, message.firstSeq + index, paths[index]!, displayPaths?.[index] ?? '', report, folders);
          }
        } finally {
          folders.close();
        }
        report.flush();
      }
      post({ type: 'batch', searchId: message.searchId, batch: message.batch });
      return;
    }
    case 'stat': {
      const paths = message.paths.split(BATCH_SEPARATOR);
      const mtimes = new Float64Array(paths.length);
      for (let index = 0; index < paths.length; index += 1) mtimes[index] = fileMtime(paths[index]!) ?? Number.NaN;
      port!.postMessage({ type: 'stats', searchId: message.searchId, batch: message.batch, mtimes } satisfies FromSearchWorker, [mtimes.buffer]);
      return;
    }
    case 'end':
      searches.delete(message.searchId);
      return;
  }
}

port.on('message', (message: ToSearchWorker) => {
  try {
    handle(message);
  } catch (error) {
    const searchId = 'searchId' in message ? message.searchId : -1;
    post({ type: 'failed', searchId, message: error instanceof Error ? error.message : String(error) });
    if (message.type === 'files') post({ type: 'batch', searchId: message.searchId, batch: message.batch });
    if (message.type === 'stat') post({ type: 'stats', searchId: message.searchId, batch: message.batch, mtimes: new Float64Array(0) });
  }
});

// Loading RE2 here makes a broken native build fail the pool's start, not a search.
LineMatcher.compile({ source: 'a', exact: undefined, required: undefined });
post({ type: 'ready' });
