import { isInsideScopedPath } from '../policy/is-inside-scoped-path.js';
import { MountPhase, depthOf, parentOf } from './mount-plan.js';
import type { MountPlan } from './mount-plan.js';

/**
 * Architecture §3.4: a mount protects an inode, not a name. Every folder between a writable mount
 * and a protected mount inside it is bound onto itself, because a mount point cannot be renamed or
 * removed (EBUSY): otherwise `mv .git .git-old && mkdir -p .git/hooks` moved the read-only mounts
 * away with `.git-old` and wrote hooks the fence denies, and in full-access `mv ~ ~.old && mkdir ~`
 * did the same to the shell start-up files and the OpenWork home. Missing folders on the way are
 * created by `wrap` first (`directoryMountPoints`). For the same reason a file that hides a
 * protected name (a worktree's `.git` file above `.git/hooks`) is pinned, so that it cannot be
 * replaced by a folder with hooks.
 */
export function pinParents(plan: MountPlan): void {
  const pins = new Set<string>();
  const mountPoints = new Set(plan.writableMounts.map((mount) => mount.path));
  /**
   * Pin every folder between the outermost writable mount that holds `target` and `target`.
   * Outermost, not nearest: with a workspace inside a temp root, `mv /tmp/x /tmp/y` otherwise
   * carried the workspace mount and its protected mounts away (a folder that only contains a mount
   * point can be renamed). Writable mounts on the way are mount points already. A sealed folder
   * ends the walk: its entries are mount points, it is pinned as a target of its own, and a
   * writable pin over it would undo the seal.
   */
  const pinAncestors = (target: string, missingChain: readonly string[]): void => {
    const container = plan.writableMounts
      .filter((mount) => mount.scope === 'subtree' && mount.path !== target && isInsideScopedPath(target, mount))
      .sort((a, b) => depthOf(a.path) - depthOf(b.path))[0];
    if (container === undefined) return;
    for (let ancestor = parentOf(target); ancestor !== container.path && ancestor !== '/'; ancestor = parentOf(ancestor)) {
      if (plan.sealedFolders.has(ancestor)) return;
      if (mountPoints.has(ancestor)) continue;
      pins.add(ancestor);
      if (missingChain.includes(ancestor)) plan.directoryMountPoints.push(ancestor);
    }
  };
  for (const target of plan.pinTargets) pinAncestors(target.path, target.missingChain);
  for (const entryPath of plan.blockingFiles) {
    for (let prefix = entryPath; prefix !== '/'; prefix = parentOf(prefix)) {
      const state = plan.stateOf(prefix);
      if (state.kind !== 'file') continue;
      if (plan.isWritable(state.path)) {
        pins.add(state.path);
        pinAncestors(state.path, []);
      }
      break;
    }
  }
  for (const pin of pins) plan.mount(pin, MountPhase.Pin, ['--bind', pin, pin]);
}
