import { defaultDeviceFiles } from './default-protected-paths.js';
import { isInsideAnyScopedPath } from './is-inside-scoped-path.js';
import type { SandboxLayout, ScopedPath } from './sandbox-layout.js';
import type { SandboxPolicy } from './sandbox-policy.js';
import { defaultSensitiveKindRules } from './sensitive-kinds.js';

function subtree(path: string): ScopedPath {
  return Object.freeze({ path, scope: 'subtree' as const });
}

function joinBelow(root: string, entry: string): string {
  return root === '/' ? `/${entry}` : `${root}/${entry}`;
}

function uniqueScoped(entries: readonly ScopedPath[]): ScopedPath[] {
  const seen = new Set<string>();
  const result: ScopedPath[] = [];
  for (const entry of entries) {
    const key = `${entry.scope}\0${entry.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(entry);
  }
  return result;
}

/**
 * The single derivation both kernel renderers and `checkAccess` use (architecture §3.4), so that
 * the fence, Seatbelt and bubblewrap cannot disagree. Pure: no file-system access.
 *
 * - tier 1 (hard-protected): OpenWork home, skill roots, `<workspace>/.openwork` (and their link
 *   locations / link targets) → `readOnly` and `hardProtected`.
 * - tier 2 (credential) → `unreadable`.
 * - tier 3 (sensitive): home entries, the root entries below every workspace, extra and temp
 *   root (in every mode), and the git redirections found when the policy was built → `readOnly`.
 *   Not below grants: a grant must only ever add (monotonic).
 * - tier 4 (writable roots of the mode) and ordinary write grants → `writable`.
 * - grants at or below a tier 2/3 entry → `readableGrants` / `writableGrants` (never tier 1).
 * - tier 3 by kind (`sensitiveKinds`, §3.10): the rules of the one table, at any depth inside
 *   every writable entry; a grant at or below a kind entry reopens it (see `SandboxLayout`).
 */
export function deriveSandboxLayout(policy: SandboxPolicy): SandboxLayout {
  const hardProtected = uniqueScoped([
    subtree(policy.openworkHome),
    ...policy.skillRoots.map(subtree),
    ...policy.workspaceRoots.map((root) => subtree(joinBelow(root, '.openwork'))),
    ...policy.hardProtectedAliases.map(subtree),
  ]);
  // §3.8: what openwork stored is unreadable like a credential; inside tier 1, so no grant reopens it.
  const unreadable = uniqueScoped([...policy.credentialPaths, ...policy.storedSecretPaths].map(subtree));

  const modeRoots: ScopedPath[] =
    policy.mode === 'full-access'
      ? [subtree('/')]
      : policy.mode === 'workspace-write'
        ? [...policy.workspaceRoots, ...policy.extraWritableRoots, ...policy.tempRoots].map(subtree)
        : [];
  // §3.2 tier 3: the root entries are protected below every root of the session. Grants add no
  // entries, so that adding a grant never denies what was allowed (property-tested).
  const sensitiveBases = [...policy.workspaceRoots, ...policy.extraWritableRoots, ...policy.tempRoots];
  const sensitive = uniqueScoped([
    ...policy.sensitiveHomePaths.map(subtree),
    ...policy.sensitiveRootAliases.map(subtree),
    ...policy.gitRedirections,
    ...sensitiveBases.flatMap((base) => policy.sensitiveRootEntries.map((entry) => subtree(joinBelow(base, entry)))),
  ]);
  const readOnly = uniqueScoped([...hardProtected, ...sensitive]);
  const guarded = [...sensitive, ...unreadable];

  const writable: ScopedPath[] = [...modeRoots];
  const writableGrants: ScopedPath[] = [];
  const readableGrants: ScopedPath[] = [];
  for (const grant of policy.grants) {
    const entry: ScopedPath = Object.freeze({ path: grant.path, scope: grant.scope });
    // Tier 1 is never unlocked (§3.3): a grant at or below it is dropped.
    if (isInsideAnyScopedPath(grant.path, hardProtected)) continue;
    if (isInsideAnyScopedPath(grant.path, unreadable)) readableGrants.push(entry);
    if (grant.access !== 'write') continue;
    if (isInsideAnyScopedPath(grant.path, guarded)) writableGrants.push(entry);
    else writable.push(entry);
  }

  // §3.8: the session reads its own spill folder, and no other.
  if (policy.sessionSpillDirectory !== undefined) readableGrants.push(subtree(policy.sessionSpillDirectory));

  return Object.freeze({
    writable: Object.freeze(uniqueScoped(writable)),
    readOnly: Object.freeze(readOnly),
    unreadable: Object.freeze(unreadable),
    hardProtected: Object.freeze(hardProtected),
    readableGrants: Object.freeze(uniqueScoped(readableGrants)),
    writableGrants: Object.freeze(uniqueScoped(writableGrants)),
    sensitiveKinds: defaultSensitiveKindRules,
    deviceFiles: Object.freeze(defaultDeviceFiles.map((device) => Object.freeze({ path: device, scope: 'exact' as const }))),
    network: policy.network,
    letterCase: policy.letterCase,
    sessionRoots: Object.freeze([...sensitiveBases]),
    homeDirectory: policy.homeDirectory,
    unreadableWhenPresent: policy.credentialPathsUnguardedWhenMissing,
    allowedSockets: policy.allowedSockets,
  });
}
