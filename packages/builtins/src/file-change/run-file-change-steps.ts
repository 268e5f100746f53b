import { FileSystemError, StaleContentError, type AsyncFileSystem, type WriteLocks } from '@openwork/fs-backend';
import { checkAccess, resolveCheckedPath, withGrants, type CheckedPathResult, type SandboxPolicy } from '@openwork/sandbox';
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
import { hashOf, type EntryState, type FileChangeStep } from './file-change-step.js';
import type { FileChangePlan } from './plan-file-change-steps.js';

/** A step that was carried out, with what rollback needs to recreate an entry it deleted. */
interface CompletedStep {
  readonly step: FileChangeStep;
  /** Permission bits of the entry the step deleted. */
  readonly deletedMode: number | undefined;
}

/** An entry that is not (any more) what a step expects, found while carrying it out; nothing was overwritten. */
class EntryChangedError extends Error {
  constructor(readonly path: string, readonly found: string) {
    super(`${path}: ${found}`);
  }
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
    const result = steps.some((each) => each.change.realPath === realPath && (each.from.kind === 'symlink' || each.to.kind === 'symlink'))
      ? await checkLinkPath(granted, realPath, operation)
      : await resolveCheckedPath(granted, realPath, { cwd: '/', intent: 'may-create', access: 'write', tool: operation });
    if (result.status === 'denied') {
      const why = result.decision.tier === 'hard-protected' ? result.decision.message : `Permission denied: ${realPath} is not writable under this session's policy.`;
      return { ok: false, code: 'permission_denied', operation, message: `Cannot ${operation} change ${step.change.changeId}: ${why} Nothing was changed.`, changeId: step.change.changeId, realPath };
    }
    if (result.status === 'unresolvable') {
      conflicts.push(mismatch(step, hashOf(step.from), null, `its path cannot be resolved any more (${result.message})`));
    } else if (result.resolved.path !== realPath) {
      conflicts.push(mismatch(step, hashOf(step.from), null, `it now resolves to ${result.resolved.path} (a folder on the way was replaced by a link)`));
    }
  }
  return conflicts.length === 0 ? undefined : conflictOutcome(operation, conflicts, false);
}

/**
 * The fence for a link itself (created or removed, never followed): its folder must still be the
 * canonical one, and the link's own path is judged by the same rule as any write.
 */
async function checkLinkPath(
  policy: SandboxPolicy,
  realPath: string,
  operation: FileChangeOperation,
): Promise<{ readonly status: 'allowed'; readonly resolved: { readonly path: string } } | Exclude<CheckedPathResult, { status: 'allowed' }>> {
  const folder = realPath.slice(0, realPath.lastIndexOf('/')) || '/';
  const parent = await resolveCheckedPath(policy, folder, { cwd: '/', intent: 'must-exist', access: 'read', tool: operation });
  if (parent.status !== 'allowed') return parent;
  if (parent.resolved.path !== folder) return { status: 'allowed', resolved: { path: `${parent.resolved.path}${realPath.slice(folder.length)}` } };
  const decision = checkAccess(policy, realPath, 'write', 'file-tool', { tool: operation });
  return decision.allowed ? { status: 'allowed', resolved: { path: realPath } } : { status: 'denied', decision };
}

/** Step 2: hold the write lock of every file for the whole batch, taken in one global order (no deadlock). */
async function withFileLocks<T>(writeLocks: WriteLocks, realPaths: readonly string[], run: () => Promise<T>): Promise<T> {
  const [first, ...rest] = realPaths;
  if (first === undefined) return run();
  return writeLocks.withLock(first, () => withFileLocks(writeLocks, rest, run));
}

/** The folder holding `realPath`. */
function parentOf(realPath: string): string {
  return realPath.slice(0, realPath.lastIndexOf('/')) || '/';
}

/** What a step leaves at its path, as the precondition walk tracks it. */
function stateAfter(step: FileChangeStep): CurrentFileState {
  switch (step.to.kind) {
    case 'absent':
      return { kind: 'absent' };
    case 'file':
      return { kind: 'file', hash: step.to.hash, mode: 0 };
    case 'symlink':
      return { kind: 'symlink', target: step.to.target };
    case 'directory':
      return { kind: 'directory', mode: 0 };
  }
}

/**
 * Step 3, the preconditions (§8.4), before anything is written: walk the steps over the entries'
 * current states (and what earlier steps of the batch leave). Undo needs each entry as the change
 * left it (a file at its `afterHash`, a link to its target, a folder), reapply as it was before;
 * a step that creates an entry needs its folder.
 */
async function findConflicts(steps: readonly FileChangeStep[], filesystem: AsyncFileSystem): Promise<FileChangeMismatch[]> {
  const states = new Map<string, CurrentFileState>();
  const blocked = new Set<string>();
  const conflicts: FileChangeMismatch[] = [];
  const stateOf = async (path: string): Promise<CurrentFileState> => {
    let state = states.get(path);
    if (state === undefined) {
      state = await currentFileState(filesystem, path);
      states.set(path, state);
    }
    return state;
  };
  for (const step of steps) {
    const { realPath } = step.change;
    if (blocked.has(realPath)) continue;
    const state = await stateOf(realPath);
    const expectedHash = hashOf(step.from);
    if (!stateMatches(state, step.from)) {
      conflicts.push(mismatch(step, expectedHash, state.kind === 'file' ? state.hash : null, describeMismatch(state, step.from)));
      blocked.add(realPath);
      continue;
    }
    if (state.kind === 'absent' && step.to.kind !== 'absent') {
      const folder = parentOf(realPath);
      const parent = states.get(folder) ?? (await filesystem.lstat(folder).catch(() => undefined));
      if (parent?.kind !== 'directory') {
        conflicts.push(mismatch(step, expectedHash, null, `its folder ${folder} does not exist any more`));
        blocked.add(realPath);
        continue;
      }
    }
    states.set(realPath, stateAfter(step));
  }
  return conflicts;
}

/** Throws unless what is at `realPath` is `expected`; returns its permission bits (for a rollback that recreates it). */
async function requireState(filesystem: AsyncFileSystem, realPath: string, expected: EntryState): Promise<number | undefined> {
  const state = await currentFileState(filesystem, realPath);
  if (!stateMatches(state, expected)) {
    if (expected.kind === 'file' || expected.kind === 'absent') throw new StaleContentError(realPath, hashOf(expected), state.kind === 'file' ? state.hash : null);
    throw new EntryChangedError(realPath, describeMismatch(state, expected));
  }
  return state.kind === 'file' || state.kind === 'directory' ? state.mode : undefined;
}

/** The optional file-system operation a step needs, or a failure naming it. */
function needed<K extends 'symlink' | 'readlink' | 'mkdir' | 'rmdir'>(filesystem: AsyncFileSystem, name: K, realPath: string): NonNullable<AsyncFileSystem[K]> {
  const operation = filesystem[name];
  if (operation === undefined) {
    throw new FileSystemError({ code: 'invalid_argument', path: realPath, message: `this session's file system cannot ${name} (it does not implement AsyncFileSystem.${name}), so ${realPath} cannot be restored` });
  }
  return operation.bind(filesystem) as NonNullable<AsyncFileSystem[K]>;
}

/**
 * Make the entry go from `from` to `to`, refusing any other state: a file by fs-backend's
 * compare-before-rename write; a link or folder created exclusively (something there is a
 * conflict); a removal after comparing (§8.4 names the window between the two), a folder only
 * when empty. Returns the permission bits of what it removed.
 */
async function moveEntry(filesystem: AsyncFileSystem, realPath: string, from: EntryState, to: EntryState, createMode: number | undefined): Promise<number | undefined> {
  switch (to.kind) {
    case 'file':
      await filesystem.atomicWrite(realPath, to.content, { expectedHash: hashOf(from), ...(from.kind === 'absent' && createMode !== undefined ? { mode: createMode } : {}) });
      return undefined;
    case 'symlink':
      try {
        await needed(filesystem, 'symlink', realPath)(to.target, realPath);
      } catch (error) {
        if (FileSystemError.isInstance(error) && error.code === 'already_exists') throw new EntryChangedError(realPath, 'something exists there now');
        throw error;
      }
      return undefined;
    case 'directory':
      try {
        await needed(filesystem, 'mkdir', realPath)(realPath, createMode ?? 0o755);
      } catch (error) {
        if (FileSystemError.isInstance(error) && error.code === 'already_exists') throw new EntryChangedError(realPath, 'something exists there now');
        throw error;
      }
      return undefined;
    case 'absent': {
      // No compare-and-delete exists: compare, then remove.
      const mode = await requireState(filesystem, realPath, from);
      if (from.kind === 'directory') {
        try {
          await needed(filesystem, 'rmdir', realPath)(realPath);
        } catch (error) {
          if (FileSystemError.isInstance(error) && error.code === 'not_empty') throw new EntryChangedError(realPath, 'the folder holds entries that the change did not make');
          throw error;
        }
      } else {
        await filesystem.unlink(realPath);
      }
      return mode;
    }
  }
}

/** Step 4: carry out one step (the write and delete go through fs-backend's compare-before-rename). */
async function carryOut(step: FileChangeStep, filesystem: AsyncFileSystem): Promise<CompletedStep> {
  const deletedMode = await moveEntry(filesystem, step.change.realPath, step.from, step.to, step.createMode);
  return { step, deletedMode };
}

/** A step's failure in words; fs-backend's stale-content text speaks of `edit`, so it is said here for any step. */
/** The error as a clause: the callers end it with their own period, so its own final one goes. */
function describeError(error: unknown): string {
  if (StaleContentError.isInstance(error)) {
    return error.actualHash === null ? 'the file was removed or replaced meanwhile (nothing overwritten)' : 'the file was changed meanwhile (nothing overwritten)';
  }
  if (error instanceof EntryChangedError) return `${error.found} (nothing overwritten)`;
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
      await moveEntry(filesystem, realPath, step.to, step.from, deletedMode ?? step.change.beforeMode ?? step.change.mode);
    } catch (error) {
      unrestored.push({ changeId, realPath, displayPath, leftHash: hashOf(step.to), originalHash: hashOf(step.from), reason: describeError(error) });
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
    return conflictOutcome(operation, [mismatch(failed, hashOf(failed.from), found, found === null ? 'it changed while the batch ran' : 'its content changed while the batch ran')], touched);
  }
  if (error instanceof EntryChangedError) return conflictOutcome(operation, [mismatch(failed, hashOf(failed.from), null, error.found)], touched);
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
