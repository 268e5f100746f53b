import type { FileObservations } from '../observations/file-observations.js';
import { sha256Hex } from '../text/sha256-hex.js';

/** Files whose last failed edit a session remembers; the oldest is forgotten first. */
const MAX_REMEMBERED_FILES = 256;

/** What makes two failed edits "the same": the file's content, the call's replacements, the error. */
export interface EditFailure {
  readonly contentSha256: string;
  readonly entries: readonly unknown[];
  readonly message: string;
}

/**
 * Errors that teach (docs/decisions/0022-edit-errors-that-teach.md), "a repeat of a call that just failed the same way": per session, the last failed edit
 * of each real path, as a hash. A success on the path forgets it. Kept in memory only, like the
 * observation table it hangs on (§7.4), so it lives exactly as long as the session's table.
 */
export class EditFailureMemory {
  readonly #lastFailure = new Map<string, string>();

  /** Records a failure of an edit of `path`; `true` when the last failure there was this very one. */
  recordFailure(path: string, failure: EditFailure): boolean {
    const fingerprint = sha256Hex(new TextEncoder().encode(JSON.stringify([failure.contentSha256, failure.entries, failure.message])));
    const repeated = this.#lastFailure.get(path) === fingerprint;
    this.#lastFailure.delete(path);
    this.#lastFailure.set(path, fingerprint);
    if (this.#lastFailure.size > MAX_REMEMBERED_FILES) {
      const oldest = this.#lastFailure.keys().next();
      if (oldest.done !== true) this.#lastFailure.delete(oldest.value);
    }
    return repeated;
  }

  /** After a successful edit of `path`. */
  forget(path: string): void {
    this.#lastFailure.delete(path);
  }
}

const memories = new WeakMap<FileObservations, EditFailureMemory>();

/**
 * The memory of the session that owns `observations`. Core passes one observation table to every
 * toolset it builds for a session (§7.4), so keying on it spans turns and rebuilt toolsets, and a
 * session with its own table starts with nothing remembered.
 */
export function editFailureMemory(observations: FileObservations): EditFailureMemory {
  let memory = memories.get(observations);
  if (memory === undefined) {
    memory = new EditFailureMemory();
    memories.set(observations, memory);
  }
  return memory;
}
