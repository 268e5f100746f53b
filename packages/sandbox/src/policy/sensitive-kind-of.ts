import { layoutOf } from './check-access.js';
import type { SensitiveKind } from './git-sensitive-names.js';
import type { SandboxLayout, ScopedPath } from './sandbox-layout.js';
import type { SandboxPolicy } from './sandbox-policy.js';
import { findBareRepositoryKinds, findRepositoryHooksFolders, matchSensitiveNames, outermostRegionOf, type SensitiveKindMatch } from './sensitive-kinds.js';

function isLayout(value: SandboxLayout | SandboxPolicy): value is SandboxLayout {
  return 'writable' in value && 'readOnly' in value;
}

/**
 * Which tier 3 kind (architecture §3.10) a canonical path is, or `undefined`: `git-config`,
 * `git-hooks`, `git-commondir`, `git-worktrees`, `git-modules`, `git-file`, `envrc`, `vscode`,
 * `idea`, `hooks-path` (see `SensitiveKind`). Answers what the path IS, whatever the mode and the
 * grants (whether it may be written is `checkAccess`'s answer). When several kinds hold (a
 * `.vscode/.git/config`), the outermost entry's kind is returned: its rule covers the rest.
 *
 * `git-file` is the `.git` entry itself whatever it is now (file, link, folder, nothing): a staged
 * write that creates it as a *directory* makes a new repository (whose config and hooks are then
 * judged one by one); as a file or link it redirects git. `hooks-path` reads the host's git
 * configuration now (the repositories holding the path, up to the outermost writable entry or
 * session root; fail closed: a configuration that cannot be read or parsed makes the path
 * `hooks-path`); everything else is pattern matching on the path's components.
 *
 * Takes the call's policy (its layout is derived once and reused) or a layout.
 */
export function sensitiveKindOf(layoutOrPolicy: SandboxLayout | SandboxPolicy, canonicalPath: string): SensitiveKind | undefined {
  const layout = isLayout(layoutOrPolicy) ? layoutOrPolicy : layoutOf(layoutOrPolicy);
  const rules = layout.sensitiveKinds;
  if (rules === undefined) return undefined;
  const matches: SensitiveKindMatch[] = matchSensitiveNames(canonicalPath, rules.names, layout.letterCase);
  if (rules.repositoryHooksFolders) {
    const regions: ScopedPath[] = [
      ...layout.writable,
      ...layout.writableGrants,
      ...(layout.sessionRoots ?? []).map((root): ScopedPath => ({ path: root, scope: 'subtree' })),
    ];
    const top = outermostRegionOf(canonicalPath, regions.filter((region) => region.scope === 'subtree'))?.path ?? '/';
    matches.push(...findRepositoryHooksFolders(canonicalPath, top, layout.homeDirectory, layout.letterCase));
    matches.push(...findBareRepositoryKinds(canonicalPath));
  }
  // Outermost first; on a tie the name rule (listed first) wins. `sort` is stable.
  return matches.sort((a, b) => a.entry.length - b.entry.length)[0]?.kind;
}
