import { isInsideAnyScopedPath } from './is-inside-scoped-path.js';
import { isInsideAnyProtectedEntry } from './letter-case.js';
import { protectedParents } from './protected-parents.js';
import type { SandboxLayout } from './sandbox-layout.js';
import type { PathAccess, SandboxActor } from './sandbox-policy.js';

/**
 * The semantics of `SandboxLayout`, literally (see its doc comment). `checkAccess` answers with
 * this function, so the fence equals what the kernel renderers are asked to enforce. Deny-side
 * entries match with the layout's letter case; allow-side entries exactly.
 */
export function layoutAllows(layout: SandboxLayout, path: string, access: PathAccess, actor: SandboxActor): boolean {
  const denied = (entries: SandboxLayout['readOnly']): boolean => isInsideAnyProtectedEntry(path, entries, layout.letterCase);
  const readable = !denied(layout.unreadable) || isInsideAnyScopedPath(path, layout.readableGrants);
  if (access === 'read') return readable;
  if (actor === 'process' && isInsideAnyScopedPath(path, layout.deviceFiles)) return true;
  // A folder holding protected entries is never itself writable, whatever the grant (issue 19).
  if (denied(protectedParents(layout))) return false;
  if (isInsideAnyScopedPath(path, layout.writable) && !denied(layout.readOnly) && !denied(layout.unreadable)) {
    return true;
  }
  return isInsideAnyScopedPath(path, layout.writableGrants) && !denied(layout.hardProtected);
}
