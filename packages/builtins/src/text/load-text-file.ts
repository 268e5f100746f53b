import { FileSystemError, FileTooLargeError } from '@openwork/fs-backend';
import { ToolExecutionError } from '@openwork/tools-contract';
import type { CheckedPath } from '../context/checked-path.js';
import { fileSystemFailure } from '../context/file-system-failure.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { decodeUtf8 } from './decode-utf8.js';
import { formatCount } from './format-bytes.js';
import { sha256Hex } from './sha256-hex.js';
import { MAX_TEXT_FILE_BYTES } from './text-limits.js';

/** The current content of an existing write/edit target. */
export interface TextFile {
  readonly bytes: Uint8Array;
  readonly text: string;
  readonly sha256: string;
  /** Permission bits (kept by the atomic write, §7.2). */
  readonly mode: number;
}

/** What is at a write/edit target now: nothing, or a UTF-8 text file of at most 1 MiB. */
export type TargetState = { readonly exists: false } | ({ readonly exists: true } & TextFile);

/**
 * §7.2/§7.3: the state of the target of write or edit, read from the checked path. An existing
 * target must be a regular UTF-8 file of at most 1 MiB; anything else is a failure that says what
 * to do instead. A symbolic link at a checked path cannot occur (the path is the real path), and
 * one planted later is refused by `atomicWrite`'s compare-before-rename.
 */
export async function loadTarget(session: ToolSessionContext, target: CheckedPath, tool: string, signal: AbortSignal): Promise<TargetState> {
  let kind;
  let mode;
  try {
    ({ kind, mode } = await session.filesystem.lstat(target.path));
  } catch (error) {
    if (FileSystemError.isInstance(error) && error.code === 'not_found') return { exists: false };
    throw fileSystemFailure(error);
  }
  if (kind === 'directory') {
    throw new ToolExecutionError('invalid_arguments', `${target.displayPath} is a directory; ${tool} changes files. Give the path of a file (use list to see what is in ${target.displayPath}).`);
  }
  if (kind !== 'file') {
    throw new ToolExecutionError('execution_failed', `${target.displayPath} is not a regular file (a device, FIFO, socket or link); ${tool} changes regular files only.`);
  }
  let bytes: Uint8Array;
  try {
    bytes = await session.filesystem.readFile(target.path, { maxBytes: MAX_TEXT_FILE_BYTES, signal });
  } catch (error) {
    if (FileTooLargeError.isInstance(error)) {
      throw new ToolExecutionError(
        'execution_failed',
        `${target.displayPath} is ${formatCount(error.size)} bytes; ${tool} changes only text files of at most ${formatCount(MAX_TEXT_FILE_BYTES)} bytes (1 MiB). Change it with bash instead (for example sed), or split it into smaller files.`,
      );
    }
    throw fileSystemFailure(error);
  }
  const text = decodeUtf8(bytes);
  if (text === undefined) {
    throw new ToolExecutionError(
      'execution_failed',
      `${target.displayPath} is not valid UTF-8 text; ${tool} changes only UTF-8 text files. Change it with bash instead (for example iconv or sed).`,
    );
  }
  return { exists: true, bytes, text, sha256: sha256Hex(bytes), mode };
}
