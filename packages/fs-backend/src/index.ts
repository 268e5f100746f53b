export type {
  AsyncFileSystem,
  AtomicWriteOptions,
  AtomicWriteResult,
  ReadChunksOptions,
  ReadDirectoryOptions,
  ReadFileOptions,
  ReadLinesOptions,
} from './async-file-system.js';
export type { DirectoryEntry } from './directory-entry.js';
export { escapePath, unescapePath } from './escaped-path.js';
export type { FileLine, LinesSummary } from './file-line.js';
export type { FileKind, FileStat } from './file-stat.js';
export { FileSystemError, type FileSystemErrorCode, type FileSystemErrorInit } from './file-system-error.js';
export { FileTooLargeError } from './file-too-large-error.js';
export {
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_READ_FILE_MAX_BYTES,
  NodeFileSystem,
  type NodeFileSystemOptions,
} from './node-file-system.js';
export { hasRawBytes, pathFromBytes, pathToBytes, toNodePath } from './path-bytes.js';
export { StaleContentError } from './stale-content-error.js';
export { WriteLocks, type WithLockOptions } from './write-locks.js';
