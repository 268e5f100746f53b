import { isInsideAnyScopedPath, isInsideScopedPath } from '../policy/is-inside-scoped-path.js';
import { MountPhase, depthOf } from './mount-plan.js';
import type { MountPlan } from './mount-plan.js';

/**
 * Architecture §3.3: grants of this call that reopen part of a credential or sensitive entry are
 * bound after what closed it — read grants read-only, write grants writable (a missing write
 * target gets a placeholder). Inside a masked credential folder the bind goes between `--tmpfs`
 * and `--remount-ro`, while bwrap can still create the mount point. A write grant that mounts
 * nothing (`findGrantsWithoutMounts`) is left to `protectNames`.
 */
export function reopenGrants(plan: MountPlan): void {
  const { layout } = plan;
  const grants = [
    ...layout.writableGrants.map((entry) => ({ entry, writable: true })),
    ...layout.readableGrants
      .filter((entry) => !layout.writableGrants.some((other) => other.path === entry.path && other.scope === entry.scope))
      .map((entry) => ({ entry, writable: false })),
  ];
  grants.sort((a, b) => depthOf(a.entry.path) - depthOf(b.entry.path));
  for (const grant of grants) {
    if (grant.writable && (isInsideAnyScopedPath(grant.entry.path, layout.hardProtected) || plan.grantsWithoutMounts.includes(grant.entry))) continue;
    let node: { readonly path: string; readonly kind: string } | undefined = plan.stateOf(grant.entry.path);
    if (grant.writable) node = plan.writableNode(grant.entry);
    if (node === undefined || (node.kind !== 'directory' && node.kind !== 'file')) continue;
    if (node.kind === 'directory' && grant.entry.scope === 'exact') continue;
    const target = node.path;
    const bind = [grant.writable ? '--bind' : '--ro-bind', target, target];
    const container = plan.directoryMasks
      .filter((mask) => mask.path !== target && isInsideScopedPath(target, { path: mask.path, scope: 'subtree' }))
      .sort((a, b) => depthOf(b.path) - depthOf(a.path))[0];
    if (container !== undefined) {
      container.inside.push(...bind);
      plan.destinations.push(target);
    } else {
      plan.mount(target, MountPhase.Grant, bind);
    }
    if (grant.writable) plan.grantMounts.push({ path: target, scope: node.kind === 'directory' ? 'subtree' : 'exact' });
  }
}
