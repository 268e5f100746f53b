import { createHash } from 'node:crypto';
import { normalizePathText } from '@openwork/sandbox';
import { FILE_CHANGE_ARTIFACT_KIND, type FileChangeArtifact } from './file-change-artifact.js';
import type { FileChange, FileChangeUnrecorded } from './file-change.js';
import type { FileChangeFailure, FileChangeInvalidRequest, FileChangeNotRecorded, FileChangeOperation, UnrecordedChange } from './file-change-outcome.js';
import type { EntryState, FileChangeStep } from './file-change-step.js';
import { MAX_FILE_CHANGE_BYTES } from './max-file-change-bytes.js';
import { parseFileChangeArtifact } from './parse-file-change-artifact.js';

/** Which changes undo or reapply acts on (§8.4: "by change ID"). */
export interface FileChangeRequest {
  /**
   * The session's file-change artifacts, in the order the changes were made (the order of their
   * tool messages), as stored: plain data, checked here. Artifacts of other kinds are ignored.
   */
  readonly artifacts: readonly unknown[];
  /**
   * The changes to act on, by change ID; the ID of a call that made several changes (bash: the
   * tool call ID) stands for all of them. Omitted: every file change in `artifacts`.
   */
  readonly changeIds?: readonly string[];
}

/** The selected artifacts (in the order given) and the steps, in the order to carry them out. */
export interface FileChangePlan {
  readonly ok: true;
  readonly selected: readonly FileChangeArtifact[];
  readonly steps: readonly FileChangeStep[];
}

function invalid(operation: FileChangeOperation, message: string): FileChangeInvalidRequest {
  return { ok: false, code: 'invalid_request', operation, message };
}

function sha256Hex(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex');
}

/** Why the engine cannot act on this (well-shaped) artifact, or `undefined`. */
function unusableBecause(change: FileChange, operation: FileChangeOperation): string | undefined {
  const id = change.changeId;
  if (change.realPath.includes('\0') || normalizePathText(change.realPath, '/') !== change.realPath) {
    return `change ${id}: realPath ${JSON.stringify(change.realPath)} is not a canonical absolute path`;
  }
  if ((change.afterContent !== null && sha256Hex(change.afterContent) !== change.afterHash) || (change.beforeContent !== null && sha256Hex(change.beforeContent) !== change.beforeHash)) {
    return `change ${id}: its stored content does not match its hashes (the record is damaged)`;
  }
  for (const content of [change.beforeContent, change.afterContent]) {
    if (content !== null && Buffer.byteLength(content, 'utf8') > MAX_FILE_CHANGE_BYTES) {
      return `change ${id} (${change.displayPath}): undo and reapply handle files of at most 1 MiB (§8.4)`;
    }
  }
  if (operation === 'undo' && change.undone) return `change ${id} (${change.displayPath}) is already undone`;
  if (operation === 'reapply' && !change.undone) return `change ${id} (${change.displayPath}) is not undone, so there is nothing to reapply`;
  return undefined;
}

/** Why the record cannot drive undo or reapply (nothing is ever guessed), or `undefined`. */
function unrecordedBecause(change: FileChange): FileChangeUnrecorded | undefined {
  if (change.unrecorded !== undefined) return change.unrecorded;
  const entry = change.entry ?? 'file';
  // A folder's or link's "modified" side before is not part of the record (previous bits, previous target).
  if (entry !== 'file' && change.kind === 'modified') return 'not_recorded';
  if (entry === 'file' && ((change.beforeHash !== null && change.beforeContent === null) || (change.afterHash !== null && change.afterContent === null))) return 'not_recorded';
  return undefined;
}

const unrecordedWords: Readonly<Record<FileChangeUnrecorded, string>> = {
  binary: 'it is not UTF-8 text, so its contents were not recorded (undo restores text files only, §8.4)',
  too_large: 'it is larger than 1 MiB, so its contents were not recorded',
  not_recorded: 'what was there before the command was not recorded (the previous link target, permission bits or contents)',
  over_budget: 'the command changed more than its record keeps, so the contents of this change were not recorded',
};

function notRecorded(operation: FileChangeOperation, changes: readonly UnrecordedChange[]): FileChangeNotRecorded {
  const listed = changes
    .slice(0, 20)
    .map((change) => `${change.displayPath} (change ${change.changeId}): ${change.reason}`)
    .join('; ');
  const more = changes.length > 20 ? `; and ${changes.length - 20} more` : '';
  return {
    ok: false,
    code: 'not_recorded',
    operation,
    message: `Cannot ${operation}: ${changes.length === 1 ? 'a change' : `${changes.length} changes`} cannot be ${operation === 'undo' ? 'undone' : 'reapplied'} — ${listed}${more}. Nothing was changed. ${operation === 'undo' ? 'Undo' : 'Reapply'} the other changes by their own ids, or restore these files yourself (from version control or a backup).`,
    changes,
  };
}

/** The side of a change as an entry: `before` or `after`. */
function sideOf(change: FileChange, side: 'before' | 'after'): EntryState {
  const gone = side === 'before' ? change.kind === 'created' : change.kind === 'deleted';
  if (gone) return { kind: 'absent' };
  switch (change.entry ?? 'file') {
    case 'directory':
      return { kind: 'directory' };
    case 'symlink': {
      const target = side === 'before' ? change.beforeTarget : change.afterTarget;
      if (target === undefined) throw new Error(`change ${change.changeId}: a link without its ${side} target`); // excluded by unrecordedBecause and the parser
      return { kind: 'symlink', target };
    }
    case 'file': {
      const hash = side === 'before' ? change.beforeHash : change.afterHash;
      const content = side === 'before' ? change.beforeContent : change.afterContent;
      if (hash === null || content === null) throw new Error(`change ${change.changeId}: a file without its ${side} content`); // excluded as above
      return { kind: 'file', hash, content };
    }
  }
}

function stepOf(change: FileChange, operation: FileChangeOperation): FileChangeStep {
  const before = sideOf(change, 'before');
  const after = sideOf(change, 'after');
  return operation === 'undo'
    ? { change, from: after, to: before, createMode: change.kind === 'deleted' ? change.beforeMode : undefined }
    : { change, from: before, to: after, createMode: change.mode };
}

/**
 * Select the changes, check each, and order the steps (§8.4): undo runs the batch from the last
 * change to the first, reapply from the first to the last, so undoing "create, then edit" of one
 * file restores the created content and then deletes the file. A requested ID that is not a
 * change's own but the `callId` of several (a bash call) selects all of them.
 */
export function planFileChangeSteps(operation: FileChangeOperation, request: FileChangeRequest): FileChangePlan | FileChangeFailure {
  const fileChanges: FileChangeArtifact[] = [];
  for (const [index, value] of request.artifacts.entries()) {
    if (typeof value !== 'object' || value === null || (value as { kind?: unknown }).kind !== FILE_CHANGE_ARTIFACT_KIND) continue;
    const parsed = parseFileChangeArtifact(value);
    if (!parsed.ok) return invalid(operation, `artifacts[${index}] is ${parsed.message}`);
    fileChanges.push(parsed.artifact);
  }
  const byId = new Map<string, FileChangeArtifact>();
  const byCall = new Map<string, FileChangeArtifact[]>();
  for (const artifact of fileChanges) {
    const id = artifact.change.changeId;
    if (byId.has(id)) return invalid(operation, `change ${id} appears twice among the artifacts`);
    byId.set(id, artifact);
    const callId = artifact.change.callId;
    if (callId !== undefined) byCall.set(callId, [...(byCall.get(callId) ?? []), artifact]);
  }
  let selected = fileChanges;
  if (request.changeIds !== undefined) {
    const wanted = new Set<string>();
    const asked = new Set<string>();
    for (const id of request.changeIds) {
      if (asked.has(id)) return invalid(operation, `change ${id} is requested twice`);
      asked.add(id);
      const named = byId.has(id) ? [id] : (byCall.get(id) ?? []).map((artifact) => artifact.change.changeId);
      if (named.length === 0) return invalid(operation, `there is no file change with ID ${JSON.stringify(id)} among the ${fileChanges.length} given`);
      for (const changeId of named) {
        if (wanted.has(changeId)) return invalid(operation, `change ${changeId} is requested twice`);
        wanted.add(changeId);
      }
    }
    selected = fileChanges.filter((artifact) => wanted.has(artifact.change.changeId));
  }
  if (selected.length === 0) return invalid(operation, `there is no file change to ${operation}`);
  for (const artifact of selected) {
    const reason = unusableBecause(artifact.change, operation);
    if (reason !== undefined) return invalid(operation, `Cannot ${operation}: ${reason}. Nothing was changed.`);
  }
  const unrecorded: UnrecordedChange[] = [];
  for (const { change } of selected) {
    const why = unrecordedBecause(change);
    if (why !== undefined) unrecorded.push({ changeId: change.changeId, realPath: change.realPath, displayPath: change.displayPath, unrecorded: why, reason: unrecordedWords[why] });
  }
  if (unrecorded.length > 0) return notRecorded(operation, unrecorded);
  const ordered = operation === 'undo' ? [...selected].reverse() : selected;
  return { ok: true, selected, steps: ordered.map((artifact) => stepOf(artifact.change, operation)) };
}
