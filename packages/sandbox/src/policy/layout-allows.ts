import { isInsideAnyScopedPath } from './is-inside-scoped-path.js';
import type { SandboxLayout } from './sandbox-layout.js';
import type { PathAccess, SandboxActor } from './sandbox-policy.js';

/**
 * The semantics of `SandboxLayout`, literally (see its doc comment). `checkAccess` answers with
 * this function, so the fence equals what the kernel renderers are asked to enforce.
 */
export function layoutAllows(layout: SandboxLayout, path: string, access: PathAccess, actor: SandboxActor): boolean {
  const readable = !isInsideAnyScopedPath(path, layout.unreadable) || isInsideAnyScopedPath(path, layout.readableGrants);
  if (access === 'read') return readable;
  if (actor === 'process' && isInsideAnyScopedPath(path, layout.deviceFiles)) return true;
  if (
    isInsideAnyScopedPath(path, layout.writable) &&
    !isInsideAnyScopedPath(path, layout.readOnly) &&
    !isInsideAnyScopedPath(path, layout.unreadable)
  ) {
    return true;
  }
  return isInsideAnyScopedPath(path, layout.writableGrants) && !isInsideAnyScopedPath(path, layout.hardProtected);
}
