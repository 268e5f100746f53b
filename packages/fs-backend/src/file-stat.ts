/** What a path is. `other` covers FIFOs, sockets and devices, which the tools never read. */
export type FileKind = 'file' | 'directory' | 'symlink' | 'other';

/**
 * The few facts tools need about a path (list: kind; glob: mtime; write: mode to preserve),
 * deliberately not Node's `Stats`, so a remote `AsyncFileSystem` can produce it (§4).
 */
export interface FileStat {
  readonly kind: FileKind;
  /** Bytes; for a symlink from `lstat`, the length of the link text. */
  readonly size: number;
  /** Last modification, milliseconds since the epoch. */
  readonly mtimeMs: number;
  /** Permission bits only (`mode & 0o7777`), e.g. `0o644`. */
  readonly mode: number;
}
