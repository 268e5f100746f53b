import { isInsideAnyScopedPath } from '../policy/is-inside-scoped-path.js';
import type { ScopedPath } from '../policy/sandbox-layout.js';
import type { HostPathState } from './host-path-state.js';
import { MountPhase, byDepth } from './mount-plan.js';
import type { MountPlan } from './mount-plan.js';

/**
 * Missing names that programs read as files. git reads its configuration before anything else and
 * stops at "Is a directory", so these become empty read-only files instead of empty folders; a
 * missing `commondir` must even name a folder (git stops at an empty one with "failed to read"):
 * `.` is the git directory itself, which is what git uses without the file.
 */
const fileContentOfMissingName: Readonly<Record<string, string>> = {
  config: '',
  'config.worktree': '',
  '.gitconfig': '',
  commondir: '.\n',
};

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * A name that does not exist yet (architecture §3.2: protected too) becomes a read-only mount
 * point, so that it can be created neither as a file nor as a folder: an empty read-only folder
 * (`--tmpfs` + `--remount-ro`; git ignores empty folders, while a `/dev/null` mask made `git add .`
 * fail on a character device), or for git's own files an empty read-only file that `wrap` creates
 * and binds onto itself.
 */
function protectMissingName(plan: MountPlan, state: HostPathState): void {
  const content = fileContentOfMissingName[baseName(state.path)];
  if (content === undefined) {
    plan.mount(state.path, MountPhase.Protect, ['--tmpfs', state.path, '--remount-ro', state.path]);
  } else {
    plan.mount(state.path, MountPhase.Protect, ['--ro-bind', state.path, state.path]);
    plan.fileMountPoints.push({ path: state.path, content });
  }
  plan.createdMountPoints.push(...state.missingChain);
  plan.closedRegions.push({ path: state.path, scope: 'subtree' });
  plan.pinTargets.push({ path: state.path, missingChain: state.missingChain });
}

/**
 * An `exact` entry (a `.git` file or link, a worktree's or submodule's `.git`): the entry itself
 * is protected, not a subtree. A file is bound read-only; a real folder is pinned (bound onto
 * itself: it cannot be removed or replaced, its contents stay writable); a link is handled by
 * `protectLinkedNames`; a missing one is left alone (README known limits).
 */
function protectEntryOnly(plan: MountPlan, entry: ScopedPath): void {
  if (plan.host.isSymbolicLink(entry.path)) return;
  const state = plan.stateOf(entry.path);
  if (!plan.isWritable(state.path) || (state.kind !== 'file' && state.kind !== 'directory')) return;
  if (state.kind === 'directory') {
    plan.mount(state.path, MountPhase.Pin, ['--bind', state.path, state.path]);
  } else {
    plan.mount(state.path, MountPhase.Protect, ['--ro-bind', state.path, state.path]);
    plan.closedRegions.push({ path: state.path, scope: 'exact' });
  }
  plan.pinTargets.push({ path: state.path, missingChain: [] });
}

/**
 * Architecture §3.2 tiers 1 and 3: hard-protected and sensitive paths inside something writable
 * are bound read-only after the writable binds (`--ro-bind P P`), so they stay read-only inside a
 * writable root. Paths nothing can write are skipped (already read-only), and so are missing names
 * nothing can create (outside every writable region, or directly in a sealed folder).
 *
 * A write grant on a missing name that reopens every protected entry around it mounts nothing
 * (`findGrantsWithoutMounts`): the name is then as writable as the root around it, so that `git
 * init` can rename `config.lock` over `.git/config` (a mount point there: EBUSY).
 */
export function protectNames(plan: MountPlan): void {
  const { layout } = plan;
  for (const entry of byDepth(layout.readOnly)) {
    if (isInsideAnyScopedPath(entry.path, layout.unreadable)) continue;
    if (entry.scope === 'exact') {
      protectEntryOnly(plan, entry);
      continue;
    }
    const state = plan.stateOf(entry.path);
    if (state.kind === 'unreachable') {
      plan.blockingFiles.push(entry.path);
      continue;
    }
    if (!plan.isWritable(state.path)) continue;
    if (state.kind === 'missing') {
      const reopened = !isInsideAnyScopedPath(entry.path, layout.hardProtected) && isInsideAnyScopedPath(entry.path, plan.grantsWithoutMounts);
      if (!reopened && plan.couldBeCreated(state)) protectMissingName(plan, state);
      continue;
    }
    plan.mount(state.path, MountPhase.Protect, ['--ro-bind', state.path, state.path]);
    plan.closedRegions.push({ path: state.path, scope: 'subtree' });
    plan.pinTargets.push({ path: state.path, missingChain: [] });
  }
}
