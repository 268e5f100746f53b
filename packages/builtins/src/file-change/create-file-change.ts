// SEAM with the file-changes work (issue 11): write and edit call only `createFileChange`. This
// file is a minimal stand-in with the §8.4 fields; the file-changes branch owns this folder and
// replaces it (diff engine, parsing, undo/reapply) without changing the call sites.
import { createHash } from 'node:crypto';
import { structuredPatch } from 'diff';

/** One hunk of a unified diff with 3 lines of context (§8.4); `lines` start with ' ', '-' or '+'. */
export interface FileChangeHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly string[];
}

/** `created`: nothing existed at the path before; `modified`: a file's content was replaced (§8.4). */
export type FileChangeKind = 'created' | 'modified';

/** Every field of the table of §8.4, plus the real path that was written. Plain JSON data. */
export interface FileChange {
  readonly changeId: string;
  readonly path: string;
  readonly realPath: string;
  readonly kind: FileChangeKind;
  readonly additions: number;
  readonly deletions: number;
  readonly hunks: readonly FileChangeHunk[];
  readonly beforeHash: string | null;
  readonly afterHash: string;
  readonly beforeContent: string | null;
  readonly afterContent: string;
  readonly undone: boolean;
}

/** The artifact (`kind: 'file_change'`); the change sits under `change` so its own `kind` keeps the spec's name. */
export interface FileChangeArtifact {
  readonly kind: 'file_change';
  readonly change: FileChange;
}

/** What write and edit know about a change they just made. */
export interface FileChangeInput {
  /** The tool call ID. */
  readonly changeId: string;
  /** The path argument as the model gave it. */
  readonly path: string;
  /** `CheckedPath.path`: the canonical real path written. */
  readonly realPath: string;
  /** `CheckedPath.displayPath`. */
  readonly displayPath: string;
  /** Bytes before; `null` when the file was created. */
  readonly before: Uint8Array | null;
  readonly after: Uint8Array;
  readonly beforeHash: string | null;
  readonly afterHash: string;
  /** Permission bits after the change, when known. */
  readonly mode?: number;
}

/** §8.4: above (D+1)² = 4,000,000 Myers trace cells, the common-prefix-and-suffix diff is used. */
const MAX_EDIT_LENGTH = 1999;

/** The §8.4 `file_change` artifact of one write or edit. */
export function createFileChange(input: FileChangeInput): FileChangeArtifact {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const beforeContent = input.before === null ? null : decoder.decode(input.before);
  const afterContent = decoder.decode(input.after);
  const hunks = diffHunks(beforeContent ?? '', afterContent);
  let additions = 0;
  let deletions = 0;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) additions += 1;
      else if (line.startsWith('-')) deletions += 1;
    }
  }
  return {
    kind: 'file_change',
    change: {
      changeId: input.changeId,
      path: input.path,
      realPath: input.realPath,
      kind: input.before === null ? 'created' : 'modified',
      additions,
      deletions,
      hunks,
      beforeHash: input.beforeHash ?? (input.before === null ? null : sha256(input.before)),
      afterHash: input.afterHash,
      beforeContent,
      afterContent,
      undone: false,
    },
  };
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function diffHunks(before: string, after: string): FileChangeHunk[] {
  const patch = structuredPatch('a', 'b', before, after, undefined, undefined, { context: 3, maxEditLength: MAX_EDIT_LENGTH });
  if (patch !== undefined) return patch.hunks.map((hunk) => ({ ...hunk, lines: [...hunk.lines] }));
  return [prefixSuffixHunk(before, after)];
}

/** The fallback: keep the common first and last lines, replace everything between (one hunk, 3 lines of context). */
function prefixSuffixHunk(before: string, after: string): FileChangeHunk {
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  let prefix = 0;
  while (prefix < oldLines.length && prefix < newLines.length && oldLines[prefix] === newLines[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < oldLines.length - prefix &&
    suffix < newLines.length - prefix &&
    oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]
  ) {
    suffix += 1;
  }
  const contextBefore = Math.min(3, prefix);
  const contextAfter = Math.min(3, suffix);
  const start = prefix - contextBefore;
  const lines: string[] = [];
  for (let index = start; index < prefix; index += 1) lines.push(` ${strip(oldLines[index]!)}`);
  for (let index = prefix; index < oldLines.length - suffix; index += 1) lines.push(`-${strip(oldLines[index]!)}`);
  for (let index = prefix; index < newLines.length - suffix; index += 1) lines.push(`+${strip(newLines[index]!)}`);
  for (let index = oldLines.length - suffix; index < oldLines.length - suffix + contextAfter; index += 1) lines.push(` ${strip(oldLines[index]!)}`);
  const oldCount = oldLines.length - prefix - suffix + contextBefore + contextAfter;
  const newCount = newLines.length - prefix - suffix + contextBefore + contextAfter;
  return {
    oldStart: oldCount === 0 ? start : start + 1,
    oldLines: oldCount,
    newStart: newCount === 0 ? start : start + 1,
    newLines: newCount,
    lines,
  };
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/(?<=\n)/);
  return lines;
}

function strip(line: string): string {
  return line.endsWith('\n') ? line.slice(0, -1) : line;
}
