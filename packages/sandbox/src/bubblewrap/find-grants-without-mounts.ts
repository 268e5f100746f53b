import { isInsideAnyScopedPath, isInsideScopedPath } from '../policy/is-inside-scoped-path.js';
import type { SandboxLayout, ScopedPath } from '../policy/sandbox-layout.js';
import type { InspectHostPath } from './host-path-state.js';

/**
 * Write grants on names that do not exist yet, inside an ordinary writable root, that reopen
 * every protected entry around them (`.git/config` and `.git/hooks` granted before `git init`).
 * Such a grant is rendered by mounting NOTHING there: the name is then as writable as the root
 * around it. A placeholder bind would be a mount point, and `git init` renames `config.lock` over
 * `.git/config` — EBUSY on a mount point — so the grant would not do what it says.
 *
 * Not such a grant (and rendered as a bind over a placeholder instead): a name outside every
 * writable root, one inside a protected entry the grant does not cover (`.vscode/settings.json`
 * with `.vscode` still protected), one inside tier 1 (§3.3), and one whose host path exists.
 */
export function findGrantsWithoutMounts(layout: SandboxLayout, inspect: InspectHostPath): ScopedPath[] {
  const closed = [...layout.readOnly, ...layout.unreadable];
  const ordinaryWritable = layout.writable.filter(
    (entry) => entry.scope === 'subtree' && !isInsideAnyScopedPath(entry.path, closed),
  );
  const result: ScopedPath[] = [];
  for (const grant of layout.writableGrants) {
    if (isInsideAnyScopedPath(grant.path, layout.hardProtected)) continue;
    const state = inspect(grant.path);
    if (state.kind !== 'missing') continue;
    if (!ordinaryWritable.some((root) => root.path !== state.path && isInsideScopedPath(state.path, root))) continue;
    // Every protected entry this name lies in must be reopened by the grant as a whole.
    const covered = closed
      .filter((entry) => isInsideScopedPath(grant.path, entry))
      .every((entry) => entry.path === grant.path || (grant.scope === 'subtree' && isInsideScopedPath(entry.path, grant)));
    if (covered) result.push(grant);
  }
  return result;
}
