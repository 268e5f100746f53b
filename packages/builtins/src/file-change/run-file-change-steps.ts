import { FileSystemError, StaleContentError, type AsyncFileSystem, type WriteLocks } from '@openwork/fs-backend';
import { resolveCheckedPath, withGrants, type SandboxPolicy } from '@openwork/sandbox';
import { currentFileState, describeMismatch, stateMatches, type CurrentFileState } from './current-file-state.js';
import type { FileChangeEngineOptions } from './file-change-engine-options.js';
import type {
  FileChangeConflict,
  FileChangeFailure,
  FileChangeMismatch,
  FileChangeOperation,
  FileChangeOutcome,
  UnrestoredFile,
} from './file-change-outcome.js';
import type { FileChangeStep } from './file-change-step.js';
import type { FileChangePlan } from './plan-file-change-steps.js';

/** A step that was carried out, with what rollback needs to recreate a file it deleted. */
interface CompletedStep {
  readonly step: FileChangeStep;
  /** Permission bits of the file the step deleted. */
  readonly deletedMode: number | undefined;
}

function mismatch(step: FileChangeStep, expectedHash: string | null, actualHash: string | null, reason: string): FileChangeMismatch {
  const { changeId, realPath, displayPath } = step.change;
  return { changeId, realPath, displayPath, expectedHash, actualHash, reason };
}

function conflictOutcome(operation: FileChangeOperation, conflicts: readonly FileChangeMismatch[], touched: boolean): FileChangeConflict {
  const since = operation === 'undo' ? 'since the change' : 'since the undo';
  const files = conflicts.map((entry) => `${entry.displayPath} (change ${entry.changeId}): ${entry.reason}`).join('; ');
  const nothing = touched ? 'The files already changed were put back; nothing was overwritten.' : 'Nothing was changed.';
  return {
    ok: false,
    code: 'conflict',
    operation,
    message: `Cannot ${operation}: a file was changed ${since} — ${files}. ${nothing} Look at the file, then try again or leave it as it is.`,
    conflicts,
  };
}

/**
 * Step 1, the fence (§8.4): the session's policy plus an exact write grant for each file, then
 * each real path through `resolveCheckedPath`. Tier 1 stays closed; a path that now resolves
 * somewhere else (a folder on the way replaced by a link) is a conflict, never followed.
 */
async function fenceFiles(operation: FileChangeOperation, steps: readonly FileChangeStep[], policy: SandboxPolicy): Promise<FileChangeFailure | undefined> {
  const firstStepOf = new Map<string, FileChangeStep>();
  for (const step of steps) if (!firstStepOf.has(step.change.realPath)) firstStepOf.set(step.change.realPath, step);
  const granted = withGrants(policy, [...firstStepOf.keys()].map((path) => ({ path, access: 'write' as const, scope: 'exact' as const })));
  const conflicts: FileChangeMismatch[] = [];
  for (const [realPath, step] of firstStepOf) {
    const result = await resolveCheckedPath(granted, realPath, { cwd: '/', intent: 'may-create', access: 'write', tool: operation });
    if (result.status === 'denied') {
      const why = result.decision.tier === 'hard-protected' ? result.decision.message : `Permission denied: ${realPath} is not writable under this session's policy.`;
      return { ok: false, code: 'permission_denied', operation, message: `Cannot ${operation} change ${step.change.changeId}: ${why} Nothing was changed.`, changeId: step.change.changeId, realPath };
    }
    if (result.status === 'unresolvable') {
      conflicts.push(mismatch(step, step.fromHash, null, `its path cannot be resolved any more (${result.message})`));
    } else if (result.resolved.path !== realPath) {
      conflicts.push(mismatch(step, step.fromHash, null, `it now resolves to ${result.resolved.path} (a folder on the way was replaced by a link)`));
    }
  }
  return conflicts.length === 0 ? undefined : conflictOutcome(operation, conflicts, false);
}

/** Step 2: hold the write lock of every file for the whole batch, taken in one global order (no deadlock). */
async function withFileLocks<T>(writeLocks: WriteLocks, realPaths: readonly string[], run: () => Promise<T>): Promise<T> {
  const [first, ...rest] = realPaths;
  if (first === undefined) return run();
  return writeLocks.withLock(first, () => withFileLocks(writeLocks, rest, run));
}

/**
 * Step 3, the hash preconditions (§8.4), before anything is written: walk the steps over the
 * files' current states. Undo needs each file at its `afterHash`, reapply at its `beforeHash`;
 * a step that creates a file needs its folder.
 */
async function findConflicts(steps: readonly FileChangeStep[], filesystem: AsyncFileSystem): Promise<FileChangeMismatch[]> {
  const states = new Map<string, CurrentFileState>();
  const blocked = new Set<string>();
  const conflicts: FileChangeMismatch[] = [];
  for (const step of steps) {
    const { realPath } = step.change;
    if (blocked.has(realPath)) continue;
    let state = states.get(realPath);
    if (state === undefined) {
      state = await currentFileState(filesystem, realPath);
      states.set(realPath, state);
    }
    if (!stateMatches(state, step.fromHash)) {
      conflicts.push(mismatch(step, step.fromHash, state.kind === 'file' ? state.hash : null, describeMismatch(state, step.fromHash)));
      blocked.add(realPath);
      continue;
    }
    if (state.kind === 'absent' && step.toContent !== null) {
      const folder = realPath.slice(0, realPath.lastIndexOf('/')) || '/';
      const parent = await filesystem.lstat(folder).catch(() => undefined);
      if (parent?.kind !== 'directory') {
        conflicts.push(mismatch(step, step.fromHash, null, `its folder ${folder} does not exist any more`));
        blocked.add(realPath);
        continue;
      }
    }
    states.set(realPath, step.toHash === null ? { kind: 'absent' } : { kind: 'file', hash: step.toHash, mode: 0 });
  }
  return conflicts;
}

/** Make the file go from `fromHash` to `toContent` (`null`: delete), refusing any other content. */
async function moveFile(
  filesystem: AsyncFileSystem,
  realPath: string,
  fromHash: string | null,
  toContent: string | null,
  createMode: number | undefined,
): Promise<number | undefined> {
  if (toContent !== null) {
    await filesystem.atomicWrite(realPath, toContent, { expectedHash: fromHash, ...(fromHash === null && createMode !== undefined ? { mode: createMode } : {}) });
    return undefined;
  }
  // No compare-and-delete exists: compare, then unlink (§8.4 names the window between the two).
  const state = await currentFileState(filesystem, realPath);
  if (!stateMatches(state, fromHash)) throw new StaleContentError(realPath, fromHash, state.kind === 'file' ? state.hash : null);
  await filesystem.unlink(realPath);
  return state.kind === 'file' ? state.mode : undefined;
}

/** Step 4: carry out one step (the write and delete go through fs-backend's compare-before-rename). */
async function carryOut(step: FileChangeStep, filesystem: AsyncFileSystem): Promise<CompletedStep> {
  const deletedMode = await moveFile(filesystem, step.change.realPath, step.fromHash, step.toContent, step.change.mode);
  return { step, deletedMode };
}

/** A step's failure in words; fs-backend's stale-content text speaks of `edit`, so it is said here for any step. */
/** The error as a clause: the callers end it with their own period, so its own final one goes. */
function describeError(error: unknown): string {
  if (StaleContentError.isInstance(error)) {
    return error.actualHash === null ? 'the file was removed or replaced meanwhile (nothing overwritten)' : 'the file was changed meanwhile (nothing overwritten)';
  }
  return (error instanceof Error ? error.message : String(error)).replace(/[.!]+$/u, '');
}

/**
 * Step 5, on failure (§8.4): put the completed steps back, last first, each only if the file
 * still holds what the step wrote — a rollback never overwrites an outside change either.
 */
async function rollBack(done: readonly CompletedStep[], filesystem: AsyncFileSystem): Promise<UnrestoredFile[]> {
  const unrestored: UnrestoredFile[] = [];
  for (const { step, deletedMode } of [...done].reverse()) {
    const { changeId, realPath, displayPath } = step.change;
    try {
      await moveFile(filesystem, realPath, step.toHash, step.fromContent, deletedMode);
    } catch (error) {
      unrestored.push({ changeId, realPath, displayPath, leftHash: step.toHash, originalHash: step.fromHash, reason: describeError(error) });
    }
  }
  return unrestored;
}

function failureAfterRollback(
  operation: FileChangeOperation,
  failed: FileChangeStep,
  error: unknown,
  touched: boolean,
  unrestored: readonly UnrestoredFile[],
): FileChangeFailure {
  const where = `${failed.change.displayPath} (change ${failed.change.changeId})`;
  if (unrestored.length > 0) {
    const left = unrestored.map((file) => `${file.displayPath} (change ${file.changeId}): ${file.reason}`).join('; ');
    return {
      ok: false,
      code: 'rollback_failed',
      operation,
      message: `RollbackFailed: ${operation} stopped at ${where}: ${describeError(error)}. Putting back the files it had already changed failed too — ${left}. Those files are not as they were before the ${operation}; look at them before trying again.`,
      cause: error,
      unrestored,
    };
  }
  if (StaleContentError.isInstance(error)) {
    const found = error.actualHash;
    return conflictOutcome(operation, [mismatch(failed, failed.fromHash, found, found === null ? 'it changed while the batch ran' : 'its content changed while the batch ran')], touched);
  }
  const code = FileSystemError.isInstance(error) ? ` (${error.code})` : '';
  return {
    ok: false,
    code: 'failed',
    operation,
    message: `Cannot ${operation}: writing ${where} failed${code}: ${describeError(error)}. ${touched ? 'The files already changed were put back.' : 'Nothing was changed.'}`,
    cause: error,
  };
}

/**
 * The undo / reapply engine (§8.4) over a checked plan: fence, locks, preconditions, steps, and
 * rollback when a step fails. Returns the outcome; throws only what is not a file-system failure
 * of a step (a programmer error).
 */
export async function runFileChangeSteps(
  operation: FileChangeOperation,
  plan: FileChangePlan,
  options: FileChangeEngineOptions,
): Promise<FileChangeOutcome> {
  const { filesystem, writeLocks, policy } = options;
  const fenced = await fenceFiles(operation, plan.steps, policy);
  if (fenced !== undefined) return fenced;
  const realPaths = [...new Set(plan.steps.map((step) => step.change.realPath))].sort();
  return withFileLocks(writeLocks, realPaths, async (): Promise<FileChangeOutcome> => {
    let conflicts: FileChangeMismatch[];
    try {
      conflicts = await findConflicts(plan.steps, filesystem);
    } catch (error) {
      const code = FileSystemError.isInstance(error) ? ` (${error.code})` : '';
      return { ok: false, code: 'failed', operation, message: `Cannot ${operation}: checking the files failed${code}: ${describeError(error)}. Nothing was changed.`, cause: error };
    }
    if (conflicts.length > 0) return conflictOutcome(operation, conflicts, false);
    const done: CompletedStep[] = [];
    for (const step of plan.steps) {
      try {
        done.push(await carryOut(step, filesystem));
      } catch (error) {
        return failureAfterRollback(operation, step, error, done.length > 0, await rollBack(done, filesystem));
      }
    }
    const undone = operation === 'undo';
    return {
      ok: true,
      operation,
      changeIds: plan.steps.map((step) => step.change.changeId),
      artifacts: plan.selected.map((artifact) => ({ ...artifact, change: { ...artifact.change, undone } })),
    };
  });
}
