import type { FileKind } from './file-stat.js';

/** One name in a directory (§7.8 list shows only directory / non-directory; glob and grep walk). */
export interface DirectoryEntry {
  /** Exact: a byte that is not UTF-8 is U+DC00 + byte (`pathFromBytes`); show it with `escapePath`. */
  readonly name: string;
  /**
   * Kind of the entry itself, or of what it points to when `readdir` was asked to follow symlinks;
   * a followed symlink that is dangling or loops stays `symlink`.
   */
  readonly kind: FileKind;
}
