import type { LineMatcherSpec } from './line-matcher.js';
import type { GrepOutputMode, ShownLine } from './file-scan.js';
import type { FileOutcome } from './file-outcome.js';

/** Indices into a search's shared control array (an `Int32Array` over a `SharedArrayBuffer`). */
export const CONTROL_STOP = 0;
/** Set once 250 lines are shown: later files need not keep lines for display. */
export const CONTROL_SHOWN_FULL = 1;
/** `CONTROL_PENDING + worker slot`: full-list characters a worker sent that are not written yet. */
export const CONTROL_PENDING = 2;

/** A worker may have this many full-list characters unwritten before it waits (bounded memory). */
export const PENDING_LIST_CHARS = 1024 * 1024;
/** Size of one full-list message. */
export const LIST_CHUNK_CHARS = 64 * 1024;

/** One file for a worker to search. */
export interface WorkerFile {
  readonly seq: number;
  readonly path: string;
  /** `path:` of the full list (content mode). */
  readonly listPrefix: string;
}

/** What a worker reports of one file with a match (or cut short). */
export interface WorkerFileResult {
  readonly seq: number;
  readonly count: number;
  readonly shown: readonly ShownLine[];
  readonly outcome: FileOutcome;
  readonly stopped: boolean;
  /**
   * Content mode: the file's full list when it all fits one piece — carried here rather than in
   * a `list` message of its own (a message per matching file was a fifth of a search's time).
   */
  readonly list?: string;
}

/** Main → worker. */
export type ToSearchWorker =
  | {
      readonly type: 'grep';
      readonly searchId: number;
      readonly spec: LineMatcherSpec;
      readonly mode: GrepOutputMode;
      /** Epoch milliseconds; checked per file and per match. */
      readonly deadline: number;
      readonly control: SharedArrayBuffer;
      readonly slot: number;
    }
  | { readonly type: 'files'; readonly searchId: number; readonly batch: number; readonly files: readonly WorkerFile[] }
  | { readonly type: 'end'; readonly searchId: number };

/** Worker → main. */
export type FromSearchWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'list'; readonly searchId: number; readonly seq: number; readonly text: string }
  | {
      /**
       * The next `processed` files of the batch, in order, were searched; `results` holds those
       * with a match or cut short, every other one had no match. Sent before a file's first
       * piece of full list (so the collector can write it at once) and at the end of the batch.
       */
      readonly type: 'progress';
      readonly searchId: number;
      readonly batch: number;
      readonly processed: number;
      readonly results: readonly WorkerFileResult[];
    }
  /** The batch is over; files of it not reported in a `progress` were never started (stopped). */
  | { readonly type: 'batch'; readonly searchId: number; readonly batch: number }
  | { readonly type: 'failed'; readonly searchId: number; readonly message: string };
