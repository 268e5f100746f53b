import { createHash } from 'node:crypto';
import { diffFileContents } from './diff-file-contents.js';
import { FILE_CHANGE_ARTIFACT_KIND, type FileChangeArtifact } from './file-change-artifact.js';

/** What {@link createFileChange} records about one content change. */
export interface CreateFileChangeInput {
  /** The tool call ID of the `write` / `edit` call. */
  readonly changeId: string;
  /** The path argument as the model gave it. */
  readonly path: string;
  /** The canonical real path that was written (`CheckedPath.path`). */
  readonly realPath: string;
  /** How results show the path (`CheckedPath.displayPath`). */
  readonly displayPath: string;
  /** The content before; `null` when the file did not exist (a `created` change). */
  readonly beforeContent: string | null;
  /** The content written. */
  readonly afterContent: string;
  /** Permission bits of the file after the change (kept so reapply can create it again alike). */
  readonly mode?: number;
}

function sha256Hex(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex');
}

/**
 * §8.4: the `file_change` artifact of one `write` / `edit` call that changed a file: both hashes
 * and contents (for undo and reapply), the hunks with three lines of context and the exact
 * numbers of added and removed lines. Call it only when the content changed (§7.2: no artifact
 * for identical content); identical content is a programmer error and throws.
 */
export function createFileChange(input: CreateFileChangeInput): FileChangeArtifact {
  const { beforeContent, afterContent } = input;
  if (beforeContent === afterContent) {
    throw new TypeError(`createFileChange(${input.changeId}): the content did not change; a result without a change has no file_change artifact (§7.2).`);
  }
  const diff = diffFileContents(beforeContent ?? '', afterContent);
  const artifact: FileChangeArtifact = {
    kind: FILE_CHANGE_ARTIFACT_KIND,
    changeId: input.changeId,
    path: input.path,
    realPath: input.realPath,
    displayPath: input.displayPath,
    changeKind: beforeContent === null ? 'created' : 'modified',
    additions: diff.additions,
    deletions: diff.deletions,
    hunks: diff.hunks,
    beforeHash: beforeContent === null ? null : sha256Hex(beforeContent),
    afterHash: sha256Hex(afterContent),
    beforeContent,
    afterContent,
    ...(input.mode === undefined ? {} : { mode: input.mode }),
    undone: false,
  };
  return artifact;
}
