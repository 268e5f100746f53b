import type { LineMatcherSpec } from './line-matcher.js';
import type { GrepOutputMode, ShownLine } from './file-scan.js';
import type { FileOutcome } from './file-outcome.js';

/** Indices into a search's shared control array (an `Int32Array` over a `SharedArrayBuffer`). */
export const CONTROL_STOP = 0;
/** Set once 250 lines are shown: later files need not keep lines for display. */
export const CONTROL_SHOWN_FULL = 1;
/** `CONTROL_PENDING + worker slot`: full-list bytes a worker sent that are not written yet. */
export const CONTROL_PENDING = 2;

/** A worker may have this many full-list bytes unwritten before it waits (bounded memory). */
export const PENDING_LIST_BYTES = 1024 * 1024;
/** Size of one piece of full list (a buffer sent, and transferred, with a message). */
export const LIST_CHUNK_BYTES = 64 * 1024;
/** Separates the paths of a batch in one string (no path holds a NUL byte). */
export const BATCH_SEPARATOR = '\0';

/** What a worker reports of one file with a match (or cut short). */
export interface WorkerFileResult {
  readonly seq: number;
  readonly count: number;
  readonly shown: readonly ShownLine[];
  readonly outcome: FileOutcome;
  readonly stopped: boolean;
  /**
   * Content mode: the file's full list (its last piece, when earlier ones came with earlier
   * messages), carried with the result (a message per matching file was a fifth of a search's
   * time). A view of the buffer the message transferred.
   */
  readonly list?: Uint8Array;
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
  | {
      /**
       * Files `firstSeq`, `firstSeq + 1`… of the walk: their paths, and (content mode) their
       * display paths, each joined by `BATCH_SEPARATOR` into one string (a message of one string
       * costs a copy; one of objects cost the walk a tenth of its time).
       */
      readonly type: 'files';
      readonly searchId: number;
      readonly batch: number;
      readonly firstSeq: number;
      readonly paths: string;
      readonly displayPaths: string;
    }
  /** glob (§7.7): the modification times of these paths (joined by `BATCH_SEPARATOR`), without following links. */
  | { readonly type: 'stat'; readonly searchId: number; readonly batch: number; readonly paths: string }
  | { readonly type: 'end'; readonly searchId: number };

/** Worker → main. */
export type FromSearchWorker =
  | { readonly type: 'ready' }
  | {
      /**
       * The next `processed` files of the batch, in order, were searched; `results` holds those
       * with a match or cut short, every other one had no match. `piece`: a part of the full
       * list of the file being searched after them, whose list is longer than one buffer.
       */
      readonly type: 'progress';
      readonly searchId: number;
      readonly batch: number;
      readonly processed: number;
      readonly results: readonly WorkerFileResult[];
      readonly piece?: { readonly seq: number; readonly bytes: Uint8Array };
    }
  /** The batch is over; files of it not reported in a `progress` were never started (stopped). */
  | { readonly type: 'batch'; readonly searchId: number; readonly batch: number }
  | { readonly type: 'failed'; readonly searchId: number; readonly message: string }
  /** The answer to `stat`: each path's `mtimeMs`, `NaN` where it could not be read (transferred). */
  | { readonly type: 'stats'; readonly searchId: number; readonly batch: number; readonly mtimes: Float64Array };
