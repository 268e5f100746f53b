import { isInsideAnyScopedPath } from '../policy/is-inside-scoped-path.js';
import { MountPhase, byDepth } from './mount-plan.js';
import type { MountPlan } from './mount-plan.js';

/**
 * Architecture §3.1 / §3.2 tier 4: the writable roots of the mode and ordinary write grants are
 * bound read-write over the read-only `/` (`/` itself in full-access), parents first. `/tmp` as a
 * temp root is the host's `/tmp` (never a fresh tmpfs), so spill and temp files stay visible
 * outside. An `exact` entry on a directory is not bound (that would open its whole subtree).
 */
export function bindWritableRoots(plan: MountPlan): void {
  const { layout } = plan;
  if (layout.writable.some((entry) => entry.path === '/' && entry.scope === 'subtree')) {
    plan.writableMounts.push({ path: '/', scope: 'subtree' });
  }
  for (const entry of byDepth(layout.writable)) {
    if (entry.path === '/') continue;
    // Inside a read-only or credential entry nothing is writable; the later steps close it anyway.
    if (isInsideAnyScopedPath(entry.path, layout.readOnly) || isInsideAnyScopedPath(entry.path, layout.unreadable)) continue;
    const state = plan.stateOf(entry.path);
    if (state.kind === 'unreachable' || isInsideAnyScopedPath(state.path, plan.writableMounts)) continue;
    const node = plan.writableNode(entry);
    if (node === undefined || (node.kind === 'directory' && entry.scope === 'exact')) continue;
    plan.mount(node.path, MountPhase.Writable, ['--bind', node.path, node.path]);
    plan.writableMounts.push({ path: node.path, scope: node.kind === 'directory' ? 'subtree' : 'exact' });
  }
}
