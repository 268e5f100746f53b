// Entry of a grep worker thread (§7.6 speed: "use both cores"). It reads and searches the files
// the main thread sends, in order, and reports each file's count, its first lines for display and
// (content mode) its full list. Nothing here decides what the model sees: that is the collector's.
import { parentPort } from 'node:worker_threads';
import { FileScan, type GrepOutputMode } from './file-scan.js';
import { LineMatcher } from './line-matcher.js';
import { scanLocalFile } from './scan-local-file.js';
import { GREP_MAX_LINES_PER_FILE } from './search-limits.js';
import {
  CONTROL_PENDING,
  CONTROL_SHOWN_FULL,
  CONTROL_STOP,
  LIST_CHUNK_CHARS,
  PENDING_LIST_CHARS,
  type FromSearchWorker,
  type ToSearchWorker,
  type WorkerFile,
  type WorkerFileResult,
} from './search-messages.js';

interface Search {
  readonly matcher: LineMatcher;
  readonly mode: GrepOutputMode;
  readonly deadline: number;
  readonly control: Int32Array;
  readonly slot: number;
}

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
    if (pending <= PENDING_LIST_CHARS || stopRequested(search)) return;
    Atomics.wait(search.control, index, pending, 50);
  }
}

/** Files of the current batch searched but not reported yet. */
class BatchReport {
  readonly #searchId: number;
  readonly #batch: number;
  #processed = 0;
  #results: WorkerFileResult[] = [];
  /** Full-list characters carried by the results not reported yet. */
  listChars = 0;

  constructor(searchId: number, batch: number) {
    this.#searchId = searchId;
    this.#batch = batch;
  }

  add(result: WorkerFileResult | undefined): void {
    this.#processed += 1;
    if (result !== undefined) this.#results.push(result);
  }

  flush(): void {
    if (this.#processed === 0) return;
    post({ type: 'progress', searchId: this.#searchId, batch: this.#batch, processed: this.#processed, results: this.#results });
    this.#processed = 0;
    this.#results = [];
    this.listChars = 0;
  }
}

function searchFile(searchId: number, search: Search, file: WorkerFile, report: BatchReport): WorkerFileResult | undefined {
  let listed = false;
  // The last piece of the list is held back: if it is the only one, it travels with the result.
  let held: string | undefined;
  const postList = (text: string) => {
    // Earlier files first, so the collector can take this file's list as it comes.
    if (!listed) report.flush();
    listed = true;
    Atomics.add(search.control, CONTROL_PENDING + search.slot, text.length);
    post({ type: 'list', searchId, seq: file.seq, text });
    waitForRoom(search);
  };
  const scan = new FileScan({
    mode: search.mode,
    matcher: search.matcher,
    shouldStop: () => stopRequested(search),
    shownLimit: Atomics.load(search.control, CONTROL_SHOWN_FULL) === 0 ? GREP_MAX_LINES_PER_FILE : 0,
    listPrefix: file.listPrefix,
    listChunkChars: LIST_CHUNK_CHARS,
    onListText: (text) => {
      if (held !== undefined) postList(held);
      held = text;
    },
  });
  const outcome = scanLocalFile(file.path, (region, last) => scan.region(region, last), search.mode === 'files_with_matches');
  const result = scan.finish();
  const count = outcome === 'searched' ? result.count : 0;
  let list: string | undefined;
  if (held !== undefined && listed) postList(held);
  else if (held !== undefined) {
    list = held;
    Atomics.add(search.control, CONTROL_PENDING + search.slot, list.length);
    report.listChars += list.length;
  }
  if (count === 0 && !result.stopped && list === undefined) return undefined;
  const shown = outcome === 'searched' ? result.shown : [];
  return { seq: file.seq, count, shown, outcome, stopped: result.stopped, ...(list === undefined ? {} : { list }) };
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
      const report = new BatchReport(message.searchId, message.batch);
      if (search !== undefined) {
        for (const file of message.files) {
          // §7.6: the limit and cancellation are checked per file; files not started are not reported.
          if (stopRequested(search)) break;
          report.add(searchFile(message.searchId, search, file, report));
          // Lists carried by results count against the backpressure budget like list messages.
          if (report.listChars >= LIST_CHUNK_CHARS) {
            report.flush();
            waitForRoom(search);
          }
        }
      }
      report.flush();
      post({ type: 'batch', searchId: message.searchId, batch: message.batch });
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
  }
});

// Loading RE2 here makes a broken native build fail the pool's start, not a search.
LineMatcher.compile({ source: 'a', exact: undefined, required: undefined });
post({ type: 'ready' });
