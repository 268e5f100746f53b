import { isInsideAnyScopedPath } from '../policy/is-inside-scoped-path.js';
import { MountPhase, byDepth } from './mount-plan.js';
import type { MountPlan } from './mount-plan.js';

/**
 * Architecture §3.3: grants never unlock tier 1. Hard-protected entries inside a write grant's
 * bind are bound read-only again after it (a missing one as an empty read-only folder).
 */
export function reprotectTierOne(plan: MountPlan): void {
  for (const entry of byDepth(plan.layout.hardProtected)) {
    const state = plan.stateOf(entry.path);
    if (state.kind === 'unreachable' || !isInsideAnyScopedPath(state.path, plan.grantMounts)) continue;
    if (state.kind === 'missing') {
      plan.mount(state.path, MountPhase.TierOne, ['--tmpfs', state.path, '--remount-ro', state.path]);
      plan.createdMountPoints.push(...state.missingChain);
    } else {
      plan.mount(state.path, MountPhase.TierOne, ['--ro-bind', state.path, state.path]);
    }
  }
}
