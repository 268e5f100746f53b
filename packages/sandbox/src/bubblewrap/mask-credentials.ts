import { isInsideAnyScopedPath } from '../policy/is-inside-scoped-path.js';
import type { ScopedPath } from '../policy/sandbox-layout.js';
import { MountPhase, byDepth } from './mount-plan.js';
import type { MountPlan } from './mount-plan.js';

/**
 * Architecture §3.2 tier 2: credential paths are neither readable nor writable. Folders become
 * `--perms 0000 --tmpfs P` + `--remount-ro P` (a plain tmpfs accepts writes that silently vanish,
 * peers.md), files `--ro-bind /dev/null P` (binds are `nodev`), missing names like folders where a
 * command could create them. Mode 0000 makes every access fail with `Permission denied` — what
 * denial detection (§3.5) recognises — instead of an empty folder's `No such file or directory`;
 * it binds because capabilities are dropped (root without CAP_DAC_OVERRIDE obeys modes). With a
 * grant inside, the mode is 0111: the granted path stays reachable, listing still fails. A grant
 * that reopens the whole entry leaves it unmasked (`reopenGrants` binds it).
 */
export function maskCredentials(plan: MountPlan): void {
  const { layout } = plan;
  const masked: ScopedPath[] = [];
  for (const entry of byDepth(layout.unreadable)) {
    const state = plan.stateOf(entry.path);
    if (state.kind === 'unreachable') {
      plan.blockingFiles.push(entry.path);
      continue;
    }
    const reopened = [...layout.writableGrants, ...layout.readableGrants].some(
      (grant) => grant.path === entry.path && (grant.scope === 'subtree' || state.kind !== 'directory'),
    );
    if (reopened || isInsideAnyScopedPath(state.path, masked)) continue;
    if (state.kind === 'file') {
      plan.mount(state.path, MountPhase.Mask, ['--ro-bind', '/dev/null', state.path]);
    } else {
      if (state.kind === 'missing') {
        // §3.8: a missing credential whose creation runs nothing later needs no host mount point.
        if (!plan.couldBeCreated(state) || layout.unreadableWhenPresent?.includes(entry.path) === true) continue;
        plan.createdMountPoints.push(...state.missingChain);
      }
      const mask = { path: state.path, inside: [] as string[] };
      plan.directoryMasks.push(mask);
      plan.mount(state.path, MountPhase.Mask, () => [
        '--perms', mask.inside.length === 0 ? '0000' : '0111', '--tmpfs', mask.path, ...mask.inside, '--remount-ro', mask.path,
      ]);
    }
    masked.push({ path: state.path, scope: 'subtree' });
    plan.closedRegions.push({ path: state.path, scope: 'subtree' });
    plan.pinTargets.push({ path: state.path, missingChain: state.missingChain });
  }
}
