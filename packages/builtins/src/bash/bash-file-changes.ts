import { createHash } from 'node:crypto';
import type { AsyncFileSystem } from '@openwork/fs-backend';
import type { StagedApplyReport, StagedChange } from '@openwork/sandbox';
import type { ToolArtifact } from '@openwork/tools-contract';
import { diffFileContents } from '../file-change/diff-file-contents.js';
import { FILE_CHANGE_ARTIFACT_KIND, type FileChangeArtifact } from '../file-change/file-change-artifact.js';
import type { FileChange, FileChangeUnrecorded } from '../file-change/file-change.js';
import { FILE_CHANGE_SUMMARY_ARTIFACT_KIND, type FileChangeSummaryArtifact } from '../file-change/file-change-summary.js';
import { MAX_FILE_CHANGE_BYTES } from '../file-change/max-file-change-bytes.js';

/**
 * The bound of a bash call's record (architecture §3.10): at most this many `file_change`
 * artifacts — the changes the sandbox lists with their details, in the order it applied them —
 * plus one `file_change_summary` with the counts of all of them.
 */
export const MAX_BASH_FILE_CHANGES = 1000;
/**
 * Contents kept per call, both sides and the diff lines counted: past it, further text changes
 * are recorded with their hashes only (`unrecorded: 'over_budget'`), so one call's tool message
 * stays a few MiB however many files it rewrote.
 */
export const MAX_BASH_CHANGE_CONTENT_BYTES = 8 * 1024 * 1024;
/** Conflicts a call's summary lists (architecture §3.11); the result's text names them too. */
const MAX_RECORDED_CONFLICTS = 100;
/** Host files hashed per call for changes whose bytes the sandbox did not record (larger than 1 MiB). */
export const MAX_BASH_HASHED_BYTES = 64 * 1024 * 1024;

/** What turning a call's staged report into artifacts needs from its session. */
export interface BashFileChangesContext {
  readonly callId: string;
  readonly filesystem: AsyncFileSystem;
  displayPath(realPath: string): string;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes as UTF-8 text (byte-exact: a BOM stays), or `undefined` when they are not: not UTF-8, or a NUL byte in them (binary, as git judges it). */
function textOf(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The `file_change` artifacts of one foreground bash call (spec §8.4, architecture §3.10), one per
 * entry the call created, changed or removed on the host, from what the sandbox applied
 * (`SandboxReleaseReport.staged`): UTF-8 text files of at most 1 MiB with both contents and hunks
 * as for `edit` (so undo and reapply act on them), other files with their hash, size and mode, links
 * with their target, folders by their path and mode; then one `file_change_summary` with the counts
 * of every change, listed or not. Nothing when the call changed nothing.
 */
export async function bashFileChanges(report: StagedApplyReport, context: BashFileChangesContext): Promise<ToolArtifact[]> {
  const total = report.counts.created + report.counts.modified + report.counts.deleted;
  const conflicts = (report.conflicts ?? []).slice(0, MAX_RECORDED_CONFLICTS).map((conflict) => ({
    path: context.displayPath(conflict.path),
    operation: conflict.operation,
    reason: conflict.reason,
    ...(conflict.keptAt === undefined ? {} : { keptAt: conflict.keptAt }),
  }));
  if (total === 0 && conflicts.length === 0) return [];
  const budget = { content: MAX_BASH_CHANGE_CONTENT_BYTES, hashed: MAX_BASH_HASHED_BYTES };
  const artifacts: FileChangeArtifact[] = [];
  for (const staged of report.changes.slice(0, MAX_BASH_FILE_CHANGES)) {
    const change = await fileChangeOf(staged, `${context.callId}.${artifacts.length + 1}`, context, budget);
    artifacts.push({ kind: FILE_CHANGE_ARTIFACT_KIND, change });
  }
  const summary: FileChangeSummaryArtifact = {
    kind: FILE_CHANGE_SUMMARY_ARTIFACT_KIND,
    summary: {
      callId: context.callId,
      counts: { ...report.counts },
      recorded: artifacts.length,
      undoable: artifacts.filter(({ change }) => change.unrecorded === undefined).length,
      complete: artifacts.length === total,
      refused: report.refused.length,
      ...(conflicts.length === 0 ? {} : { conflicts }),
    },
  };
  return [...artifacts, summary];
}

interface Budget {
  content: number;
  hashed: number;
}

async function fileChangeOf(staged: StagedChange, changeId: string, context: BashFileChangesContext, budget: Budget): Promise<FileChange> {
  const base = {
    changeId,
    callId: context.callId,
    path: context.displayPath(staged.path),
    realPath: staged.path,
    displayPath: context.displayPath(staged.path),
    kind: staged.kind,
    additions: 0,
    deletions: 0,
    hunks: [],
    beforeHash: null,
    afterHash: null,
    beforeContent: null,
    afterContent: null,
    ...(staged.mode === undefined ? {} : staged.kind === 'deleted' ? { beforeMode: staged.mode } : { mode: staged.mode }),
    undone: false,
  } satisfies FileChange;
  if (staged.type === 'directory') {
    // A folder's previous permission bits are not in the record: only its creation and removal undo.
    return { ...base, entry: 'directory', ...(staged.kind === 'modified' ? { unrecorded: 'not_recorded' as const } : {}) };
  }
  if (staged.type === 'symlink') {
    const target = staged.linkTarget;
    const link = { ...base, entry: 'symlink' as const };
    if (target === undefined) return { ...link, unrecorded: 'not_recorded' };
    if (staged.kind === 'deleted') return { ...link, beforeTarget: target };
    if (staged.kind === 'modified' && staged.beforeType === 'symlink' && staged.beforeLinkTarget !== undefined) {
      return { ...link, beforeTarget: staged.beforeLinkTarget, afterTarget: target };
    }
    // What a link replaced, if it was no link, is not in the record.
    return { ...link, afterTarget: target, ...(staged.kind === 'modified' ? { unrecorded: 'not_recorded' as const } : {}) };
  }
  return fileOf(staged, { ...base, ...(staged.size === undefined ? {} : { size: staged.size }) }, context, budget);
}

async function fileOf(staged: StagedChange, base: FileChange, context: BashFileChangesContext, budget: Budget): Promise<FileChange> {
  const before = staged.kind === 'created' ? null : staged.before;
  const after = staged.kind === 'deleted' ? null : staged.after;
  const size = staged.size ?? 0;
  if (before === undefined || after === undefined) {
    // The sandbox did not record the bytes: larger than 1 MiB, or what was there was not a file.
    const unrecorded: FileChangeUnrecorded = size > MAX_FILE_CHANGE_BYTES ? 'too_large' : 'not_recorded';
    return { ...base, unrecorded, ...(staged.kind === 'deleted' ? {} : { afterHash: await hostHash(staged, context, budget) }) };
  }
  const beforeHash = before === null ? null : sha256Hex(before);
  const afterHash = after === null ? null : sha256Hex(after);
  const hashes = { beforeHash, afterHash };
  if (before !== null && after !== null && before.equals(after)) {
    // Only the permission bits changed; the previous ones are not in the record.
    return { ...base, ...hashes, unrecorded: 'not_recorded' };
  }
  const beforeText = before === null ? null : textOf(before);
  const afterText = after === null ? null : textOf(after);
  if (beforeText === undefined || afterText === undefined) return { ...base, ...hashes, unrecorded: 'binary' };
  // Both sides and about as much again for the diff lines.
  const cost = 2 * ((before?.length ?? 0) + (after?.length ?? 0));
  if (cost > budget.content) return { ...base, ...hashes, unrecorded: 'over_budget' };
  budget.content -= cost;
  const diff = diffFileContents(beforeText ?? '', afterText ?? '');
  return { ...base, ...hashes, beforeContent: beforeText, afterContent: afterText, additions: diff.additions, deletions: diff.deletions, hunks: diff.hunks };
}

/**
 * The SHA-256 of the file the command left, when the sandbox did not record its bytes: read
 * from the host right after the call (it is a regular file of the recorded size), while the call's
 * hashing budget lasts; else `null` (not known).
 */
async function hostHash(staged: StagedChange, context: BashFileChangesContext, budget: Budget): Promise<string | null> {
  const size = staged.size;
  if (size === undefined || size > budget.hashed) return null;
  try {
    const stat = await context.filesystem.lstat(staged.path);
    if (stat.kind !== 'file' || stat.size !== size) return null;
    budget.hashed -= size;
    return await context.filesystem.sha256File(staged.path);
  } catch {
    return null;
  }
}
