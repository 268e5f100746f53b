import type { SandboxCommand } from '../backend/sandbox-backend.js';
import type { SandboxLayout } from '../policy/sandbox-layout.js';
import { bindWritableRoots } from './bind-writable-roots.js';
import { realBubblewrapHost } from './bubblewrap-host.js';
import type { BubblewrapHost } from './bubblewrap-host.js';
import { maskCredentials } from './mask-credentials.js';
import { maskHostSockets } from './mask-host-sockets.js';
import { MountPlan } from './mount-plan.js';
import type { BubblewrapRendering } from './mount-plan.js';
import { pinParents } from './pin-parents.js';
import { protectLinkedNames } from './protect-linked-names.js';
import { protectNames } from './protect-names.js';
import { reopenGrants } from './reopen-grants.js';
import { reprotectTierOne } from './reprotect-tier-one.js';

export type { BubblewrapRendering, FileMountPoint, WritablePlaceholder } from './mount-plan.js';

/**
 * Render `layout` (architecture §3.4 "bubblewrap") as bwrap arguments: `/` read-only (read-write
 * in full-access), a fresh `/dev` and `/proc`, `/proc/sys` read-only, then one step per rule of
 * architecture §3, each adding mounts to one plan. The plan applies them parents first (bwrap
 * binds from the host's tree, so a later bind of a parent would cover what is below it) and, at
 * the same path, in the order of the steps. Throws `SandboxUnavailableError` when a protected
 * symbolic link cannot be protected (`protectLinkedNames`).
 */
export function renderBubblewrapArguments(
  layout: SandboxLayout,
  command: SandboxCommand,
  host: BubblewrapHost = realBubblewrapHost,
): BubblewrapRendering {
  const plan = new MountPlan(layout, host);
  bindWritableRoots(plan); // tier 4: writable roots and ordinary write grants
  protectLinkedNames(plan); // tiers 1-3: a protected name that is a symbolic link
  protectNames(plan); // tiers 1 and 3: read-only, also when missing
  maskCredentials(plan); // tier 2: unreadable and unwritable
  maskHostSockets(plan); // §3.7: host daemons behind UNIX sockets are unreachable
  reopenGrants(plan); // §3.3: grants of this call
  reprotectTierOne(plan); // §3.3: never tier 1
  pinParents(plan); // §3.4: protected names cannot be moved away
  return plan.render(command);
}
