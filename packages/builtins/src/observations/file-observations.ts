import { BuiltinsError } from '../context/builtins-error.js';
import type { CheckedPath } from '../context/checked-path.js';

/** Why a write or edit of an existing file was refused (§7.4); `message` is the model's text, verbatim. */
export interface ObservationRejection {
  readonly reason: 'not_read' | 'changed_since_read';
  readonly message: string;
}

/**
 * §7.4 "先读后改": an in-memory table real path → SHA-256 of the content the model last read or
 * wrote. Core keeps one per session and passes the same instance to every toolset it builds for
 * that session, so observations carry across turns and rebuilt toolsets. The table itself is not
 * persisted; a host that continues a session in a new process (the CLI's `--session`) saves
 * `entries()` and gives them back with `restore` — a restored hash only lets an edit run while the
 * file still hashes the same, so a stale entry is refused like any other. Undo and reapply (§8.4)
 * do not go through it.
 *
 * | event | table |
 * |---|---|
 * | `read` succeeded (whole file or one page) | `record` the hash of the whole current file |
 * | `write` / `edit` succeeded | `record` the hash written, so consecutive edits need no new read |
 * | target exists but is not in the table | refuse: `Read <path> before editing it.` |
 * | in the table, but the file on disk hashes differently | refuse: `<path> changed since you last read it (by you via bash, or by the user). Read it again before editing.` |
 * | target does not exist (creating a file) | no check |
 *
 * Keys are canonical real paths (`CheckedPath.path`), so two spellings of one file share a row.
 */
export class FileObservations {
  readonly #hashes = new Map<string, string>();

  /** After a successful read, write or edit: the model has now seen `sha256` at `path`. */
  record(path: CheckedPath, sha256: string): void {
    this.#hashes.set(path.path, sha256);
  }

  /** Whether the model has read, written or edited the file at this canonical real path. */
  seen(realPath: string): boolean {
    return this.#hashes.has(realPath);
  }

  /** The hash last recorded for `path`, if any. */
  lookup(path: CheckedPath): string | undefined {
    return this.#hashes.get(path.path);
  }

  /**
   * The check before writing an existing file whose content hashes to `currentSha256` now (§7.4).
   * `undefined`: go ahead. Otherwise the rejection, with the path shown as `path.displayPath`.
   */
  check(path: CheckedPath, currentSha256: string): ObservationRejection | undefined {
    const seen = this.#hashes.get(path.path);
    if (seen === undefined) {
      return { reason: 'not_read', message: `Read ${path.displayPath} before editing it.` };
    }
    if (seen !== currentSha256) {
      return {
        reason: 'changed_since_read',
        message: `${path.displayPath} changed since you last read it (by you via bash, or by the user). Read it again before editing.`,
      };
    }
    return undefined;
  }

  /** The table as `[real path, SHA-256]` pairs, for a host that continues the session elsewhere. */
  entries(): [string, string][] {
    return [...this.#hashes];
  }

  /**
   * Puts back one pair that `entries()` gave (a canonical real path and a SHA-256 hex). Anything
   * else is a programmer error: a relative path, or a hash that is not 64 hex digits, throws.
   */
  restore(realPath: string, sha256: string): void {
    if (!realPath.startsWith('/') || realPath.includes('\0')) throw new BuiltinsError(`FileObservations.restore: ${JSON.stringify(realPath)} is not an absolute real path from entries().`);
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new BuiltinsError(`FileObservations.restore: ${JSON.stringify(sha256)} is not a SHA-256 hex digest.`);
    this.#hashes.set(realPath, sha256);
  }

  /** Number of files in the table. */
  get size(): number {
    return this.#hashes.size;
  }
}
