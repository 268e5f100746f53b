import { createHash } from 'node:crypto';
import { BuiltinsError } from '../context/builtins-error.js';
import { diffFileContents } from './diff-file-contents.js';
import { FILE_CHANGE_ARTIFACT_KIND, type FileChangeArtifact } from './file-change-artifact.js';

// The names write and edit import from here (the seam between the file tools and the file-change engine).
export type { FileChangeArtifact } from './file-change-artifact.js';
export type { FileChange, FileChangeKind } from './file-change.js';
export type { FileChangeHunk } from './file-change-hunk.js';

/** What `write` and `edit` know about a change they just made. */
export interface FileChangeInput {
  /** The tool call ID. */
  readonly changeId: string;
  /** The path argument as the model gave it. */
  readonly path: string;
  /** `CheckedPath.path`: the canonical real path written. */
  readonly realPath: string;
  /** `CheckedPath.displayPath`. */
  readonly displayPath: string;
  /** The bytes before (UTF-8 text); `null` when the file was created. */
  readonly before: Uint8Array | null;
  /** The bytes written (UTF-8 text). */
  readonly after: Uint8Array;
  /** SHA-256 hex of `before` when the caller has it (the observation); checked, computed when absent. */
  readonly beforeHash?: string | null;
  /** SHA-256 hex of `after` when the caller has it (`atomicWrite`'s result); checked, computed when absent. */
  readonly afterHash?: string;
  /** Permission bits of the file after the change, when known. */
  readonly mode?: number;
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A byte-exact decoder: a BOM stays in the text, invalid UTF-8 throws (the tools only write UTF-8 text). */
function decodeText(bytes: Uint8Array, changeId: string, side: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (error) {
    throw new BuiltinsError(`createFileChange(${changeId}): the ${side} content is not UTF-8 text; file changes record text files only (§7.2).`, { cause: error });
  }
}

function checkedHash(given: string | null | undefined, bytes: Uint8Array, changeId: string, side: string): string {
  const actual = sha256Hex(bytes);
  if (given !== undefined && given !== null && given.toLowerCase() !== actual) {
    throw new BuiltinsError(`createFileChange(${changeId}): ${side}Hash ${given} is not the SHA-256 of the ${side} content (${actual}).`);
  }
  return actual;
}

/**
 * §8.4: the `file_change` artifact of one `write` or `edit` that changed a file: both hashes and
 * contents (for undo and reapply), hunks with three lines of context and the exact numbers of
 * added and removed lines (Myers, or the common-prefix-and-suffix fallback above
 * `MYERS_TRACE_LIMIT`, so a 1 MiB rewrite stays fast). Call it only when the bytes changed: no
 * artifact for identical content (§7.2), so identical bytes throw, as does a hash that does not
 * match its bytes (both are programmer errors).
 */
export function createFileChange(input: FileChangeInput): FileChangeArtifact {
  const { changeId, before, after } = input;
  if (before !== null && Buffer.compare(before, after) === 0) {
    throw new BuiltinsError(`createFileChange(${changeId}): the content did not change; a result without a change has no file_change artifact (§7.2).`);
  }
  if (before === null && input.beforeHash !== undefined && input.beforeHash !== null) {
    throw new BuiltinsError(`createFileChange(${changeId}): a created file has no beforeHash.`);
  }
  const beforeContent = before === null ? null : decodeText(before, changeId, 'before');
  const afterContent = decodeText(after, changeId, 'after');
  const diff = diffFileContents(beforeContent ?? '', afterContent);
  return {
    kind: FILE_CHANGE_ARTIFACT_KIND,
    change: {
      changeId,
      path: input.path,
      realPath: input.realPath,
      displayPath: input.displayPath,
      kind: before === null ? 'created' : 'modified',
      additions: diff.additions,
      deletions: diff.deletions,
      hunks: diff.hunks,
      beforeHash: before === null ? null : checkedHash(input.beforeHash, before, changeId, 'before'),
      afterHash: checkedHash(input.afterHash, after, changeId, 'after'),
      beforeContent,
      afterContent,
      ...(input.mode === undefined ? {} : { mode: input.mode }),
      undone: false,
    },
  };
}
