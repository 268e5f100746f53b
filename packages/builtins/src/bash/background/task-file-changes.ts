import type { StagedApplyReport, StagedChange } from '@openwork/sandbox';
import type { ToolOutput } from '@openwork/tools-contract';
import type { ToolSessionContext } from '../../context/tool-session-context.js';
import { bashFileChanges } from '../bash-file-changes.js';
import { withArtifacts } from '../with-artifacts.js';
import type { BackgroundTask } from './background-task.js';

/**
 * One entry's changes of several passes as one change: from what it was before the first to what
 * it is after the last (created then removed: nothing). Undefined when the passes cancel out.
 */
function collapse(first: StagedChange, last: StagedChange): StagedChange | undefined {
  if (first.kind === 'created' && last.kind === 'deleted') return undefined;
  const kind = first.kind === 'created' ? 'created' : last.kind === 'deleted' ? 'deleted' : 'modified';
  const { before: _lastBefore, beforeType: _lastBeforeType, beforeMode: _lastBeforeMode, beforeLinkTarget: _lastBeforeTarget, ...after } = last;
  const before = {
    ...(first.beforeType === undefined ? {} : { beforeType: first.beforeType }),
    ...(first.beforeMode === undefined ? {} : { beforeMode: first.beforeMode }),
    ...(first.beforeLinkTarget === undefined ? {} : { beforeLinkTarget: first.beforeLinkTarget }),
  };
  // Bytes only when both ends are known; otherwise the change is listed without them (not undoable).
  const { after: afterBytes, ...rest } = after;
  const bytes = first.before !== undefined && afterBytes !== undefined ? { before: first.before, after: afterBytes } : {};
  return { ...rest, ...(kind === 'modified' ? before : {}), ...bytes, kind };
}

/**
 * The staged reports of a background task's passes since the last time they were recorded, as one
 * report (architecture §3.10–3.11): one change per entry, from before the first pass to after the
 * last, the refusals, skips and conflicts of all of them.
 */
export function mergeStagedReports(reports: readonly StagedApplyReport[]): StagedApplyReport {
  const byPath = new Map<string, StagedChange>();
  const first = new Map<string, StagedChange>();
  for (const report of reports) {
    for (const change of report.changes) {
      const earlier = first.get(change.path);
      if (earlier === undefined) {
        first.set(change.path, change);
        byPath.set(change.path, change);
        continue;
      }
      const merged = collapse(earlier, change);
      if (merged === undefined) byPath.delete(change.path);
      else byPath.set(change.path, merged);
    }
  }
  const changes = [...byPath.values()];
  const complete = reports.every((report) => report.complete);
  const counts = complete
    ? { created: changes.filter((c) => c.kind === 'created').length, modified: changes.filter((c) => c.kind === 'modified').length, deleted: changes.filter((c) => c.kind === 'deleted').length }
    : reports.reduce((sum, report) => ({ created: sum.created + report.counts.created, modified: sum.modified + report.counts.modified, deleted: sum.deleted + report.counts.deleted }), { created: 0, modified: 0, deleted: 0 });
  const conflicts = reports.flatMap((report) => report.conflicts ?? []);
  return {
    changes,
    refused: reports.flatMap((report) => report.refused),
    skipped: reports.flatMap((report) => report.skipped),
    counts,
    complete,
    ...(conflicts.length === 0 ? {} : { conflicts }),
  };
}

/**
 * `output` with the `file_change` artifacts of what `task` applied to the host since they were last
 * recorded (its sync passes and, once it ended, its release): a background task's changes are
 * listed and undone like a foreground call's, under the ID of the call that reports them.
 */
export async function withTaskFileChanges(output: ToolOutput, task: BackgroundTask, session: ToolSessionContext, callId: string): Promise<ToolOutput> {
  const reports = task.takeStagedReports();
  if (reports.length === 0) return output;
  const artifacts = await bashFileChanges(mergeStagedReports(reports), { callId, filesystem: session.filesystem, displayPath: (path) => session.displayPath(path) });
  return withArtifacts(output, artifacts);
}
