import { createHash } from 'node:crypto';
import { normalizePathText } from '@openwork/sandbox';
import { FILE_CHANGE_ARTIFACT_KIND, type FileChangeArtifact } from './file-change-artifact.js';
import type { FileChange } from './file-change.js';
import type { FileChangeInvalidRequest, FileChangeOperation } from './file-change-outcome.js';
import type { FileChangeStep } from './file-change-step.js';
import { MAX_FILE_CHANGE_BYTES } from './max-file-change-bytes.js';
import { parseFileChangeArtifact } from './parse-file-change-artifact.js';

/** Which changes undo or reapply acts on (§8.4: "by change ID"). */
export interface FileChangeRequest {
  /**
   * The session's file-change artifacts, in the order the changes were made (the order of their
   * tool messages), as stored: plain data, checked here. Artifacts of other kinds are ignored.
   */
  readonly artifacts: readonly unknown[];
  /** The changes to act on. Omitted: every file change in `artifacts`. */
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
  if (sha256Hex(change.afterContent) !== change.afterHash || (change.beforeContent !== null && sha256Hex(change.beforeContent) !== change.beforeHash)) {
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

function stepOf(change: FileChange, operation: FileChangeOperation): FileChangeStep {
  const before = { hash: change.beforeHash, content: change.beforeContent };
  const after = { hash: change.afterHash, content: change.afterContent };
  const [from, to] = operation === 'undo' ? [after, before] : [before, after];
  return { change, fromHash: from.hash, fromContent: from.content, toHash: to.hash, toContent: to.content };
}

/**
 * Select the changes, check each, and order the steps (§8.4): undo runs the batch from the last
 * change to the first, reapply from the first to the last, so undoing "create, then edit" of one
 * file restores the created content and then deletes the file.
 */
export function planFileChangeSteps(operation: FileChangeOperation, request: FileChangeRequest): FileChangePlan | FileChangeInvalidRequest {
  const fileChanges: FileChangeArtifact[] = [];
  for (const [index, value] of request.artifacts.entries()) {
    if (typeof value !== 'object' || value === null || (value as { kind?: unknown }).kind !== FILE_CHANGE_ARTIFACT_KIND) continue;
    const parsed = parseFileChangeArtifact(value);
    if (!parsed.ok) return invalid(operation, `artifacts[${index}] is ${parsed.message}`);
    fileChanges.push(parsed.artifact);
  }
  const byId = new Map<string, FileChangeArtifact>();
  for (const artifact of fileChanges) {
    const id = artifact.change.changeId;
    if (byId.has(id)) return invalid(operation, `change ${id} appears twice among the artifacts`);
    byId.set(id, artifact);
  }
  let selected = fileChanges;
  if (request.changeIds !== undefined) {
    const wanted = new Set<string>();
    for (const id of request.changeIds) {
      if (wanted.has(id)) return invalid(operation, `change ${id} is requested twice`);
      if (!byId.has(id)) return invalid(operation, `there is no file change with ID ${JSON.stringify(id)} among the ${fileChanges.length} given`);
      wanted.add(id);
    }
    selected = fileChanges.filter((artifact) => wanted.has(artifact.change.changeId));
  }
  if (selected.length === 0) return invalid(operation, `there is no file change to ${operation}`);
  for (const artifact of selected) {
    const reason = unusableBecause(artifact.change, operation);
    if (reason !== undefined) return invalid(operation, `Cannot ${operation}: ${reason}. Nothing was changed.`);
  }
  const ordered = operation === 'undo' ? [...selected].reverse() : selected;
  return { ok: true, selected, steps: ordered.map((artifact) => stepOf(artifact.change, operation)) };
}
