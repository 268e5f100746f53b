import type { AccessDecision } from './access-decision.js';
import { deriveSandboxLayout } from './derive-sandbox-layout.js';
import { isInsideAnyScopedPath } from './is-inside-scoped-path.js';
import { judgeLayoutAccess } from './layout-allows.js';
import { isInsideAnyProtectedEntry } from './letter-case.js';
import { isGrantedProcessSecret, isProcessSecretPath } from './process-secrets.js';
import { protectedParents } from './protected-parents.js';
import type { SandboxLayout } from './sandbox-layout.js';
import type { PathAccess, PathTier, SandboxActor, SandboxMode, SandboxPolicy } from './sandbox-policy.js';
import { matchSensitiveNames } from './sensitive-kinds.js';

export interface CheckAccessOptions {
  /**
   * The tool named in the retry hint (`write`, `edit`, `bash` …). Omitted: the text keeps the
   * literal slot `{tool}` for the caller to fill (see `toolSlot`).
   */
  readonly tool?: string;
}

/** The placeholder left in denial texts when no tool name was given. */
export const toolSlot = '{tool}';

const layouts = new WeakMap<SandboxPolicy, SandboxLayout>();

/** Policies are frozen values, so the layout is derived once per policy object. */
export function layoutOf(policy: SandboxPolicy): SandboxLayout {
  let layout = layouts.get(policy);
  if (layout === undefined) {
    layout = deriveSandboxLayout(policy);
    layouts.set(policy, layout);
  }
  return layout;
}

/**
 * First matching tier of §3.2 for this path under this layout. Tier 3 by kind (§3.10) counts by
 * its name rules (pure, no file-system access: grep asks this for every file) inside a writable
 * entry; a repository's `core.hooksPath` folder shows as tier 3 when `checkAccess` refuses a write.
 */
export function classifyPath(layout: SandboxLayout, path: string): PathTier {
  if (isInsideAnyProtectedEntry(path, layout.hardProtected, layout.letterCase)) return 'hard-protected';
  if (isInsideAnyProtectedEntry(path, layout.unreadable, layout.letterCase)) return 'credential';
  if (isInsideAnyProtectedEntry(path, layout.readOnly, layout.letterCase)) return 'sensitive';
  const writable = isInsideAnyScopedPath(path, layout.writable);
  if (
    layout.sensitiveKinds !== undefined &&
    (writable || isInsideAnyScopedPath(path, layout.writableGrants)) &&
    // The `.git` entry itself counts when a write of it is refused (a `.git` folder at a root is a protected parent).
    matchSensitiveNames(path, layout.sensitiveKinds.names, layout.letterCase).some((match) => match.kind !== 'git-file')
  ) {
    return 'sensitive';
  }
  if (writable) return 'writable-root';
  return 'outside';
}

function describeTier(tier: PathTier, mode: SandboxMode): string {
  switch (tier) {
    case 'credential':
      return 'a credential path (secrets are unreadable without approval)';
    case 'sensitive':
      return 'a sensitive path (changing it runs code outside the sandbox later)';
    case 'writable-root':
      return 'inside a writable root but not writable here';
    case 'outside':
      return mode === 'read-only'
        ? 'not writable in read-only mode'
        : 'outside the writable roots of this session';
    case 'hard-protected':
      return 'protected';
  }
}

/** The escalatable denial text of architecture §3.5. */
export function escalationText(path: string, why: string, access: PathAccess, tool: string): string {
  const grant = JSON.stringify({ paths: [{ path, access, scope: 'exact' }] });
  return `Permission denied: ${path} is ${why}. To get access, call ${tool} again with sandboxPermissions ${grant} and a one-line justification; the user will be asked.`;
}

/** The tier 1 denial text of architecture §3.5. */
export function hardProtectedText(path: string): string {
  return `Permission denied: ${path} is protected and cannot be changed by tools.`;
}

function isStoredSecret(policy: SandboxPolicy, path: string): boolean {
  return policy.storedSecretPaths.some((secret) => path === secret || path.startsWith(`${secret}/`));
}

/** §3.8: what openwork stored (session database, other sessions' spill) — no grant reopens it. */
export function storedSecretText(path: string): string {
  return `Permission denied: ${path} holds what openwork stored for sessions and cannot be read by tools.`;
}

/**
 * The denial for a folder that holds protected entries: not escalatable, because no
 * grant makes it movable — bubblewrap pins it and Seatbelt excludes it in every case.
 */
export function protectedParentText(path: string): string {
  return `Permission denied: ${path} holds protected paths, so it cannot be created, moved, replaced or removed by tools. Change the files inside it instead.`;
}

/**
 * §3.2 `check(path, access, actor)` over a canonical path (use `canonicalizePath` or
 * `resolveCheckedPath` first). Allow/deny is `layoutAllows` over `deriveSandboxLayout(policy)`,
 * the same data the Seatbelt and bubblewrap renderers use, so parity holds by construction.
 */
export function checkAccess(
  policy: SandboxPolicy,
  canonicalPath: string,
  access: PathAccess,
  actor: SandboxActor,
  options: CheckAccessOptions = {},
): AccessDecision {
  const layout = layoutOf(policy);
  // §3.8: a file tool runs in the openwork process; what a process keeps to itself in procfs is a
  // credential for it (sandboxed processes have their own procfs, where they see only themselves).
  if (actor === 'file-tool' && isProcessSecretPath(policy, canonicalPath) && !isGrantedProcessSecret(policy, canonicalPath, access)) {
    const suggestedGrant = { path: canonicalPath, access, scope: 'exact' as const };
    const why = 'a process secret (the environment, arguments, memory and open files of a process are unreadable without approval)';
    const message = escalationText(canonicalPath, why, access, options.tool ?? toolSlot);
    return { allowed: false, path: canonicalPath, access, tier: 'credential', sandboxDenied: true, message, suggestedGrant };
  }
  const judgement = judgeLayoutAccess(layout, canonicalPath, access, actor);
  const classified = classifyPath(layout, canonicalPath);
  // A write refused by a kind rule (e.g. a repository's hooks folder, found on the host) is tier 3.
  const tier = judgement.kind !== undefined && (classified === 'writable-root' || classified === 'outside') ? 'sensitive' : classified;
  if (judgement.allowed) {
    return { allowed: true, path: canonicalPath, access, tier };
  }
  if (tier === 'hard-protected' && access === 'write') {
    return { allowed: false, path: canonicalPath, access, tier, sandboxDenied: false, message: hardProtectedText(canonicalPath) };
  }
  if (tier === 'hard-protected' && isInsideAnyProtectedEntry(canonicalPath, layout.unreadable, layout.letterCase) && isStoredSecret(policy, canonicalPath)) {
    return { allowed: false, path: canonicalPath, access, tier, sandboxDenied: false, message: storedSecretText(canonicalPath) };
  }
  if (access === 'write' && isInsideAnyProtectedEntry(canonicalPath, protectedParents(layout), layout.letterCase)) {
    return { allowed: false, path: canonicalPath, access, tier, sandboxDenied: false, message: protectedParentText(canonicalPath) };
  }
  const suggestedGrant = { path: canonicalPath, access, scope: 'exact' as const };
  return {
    allowed: false,
    path: canonicalPath,
    access,
    tier,
    sandboxDenied: true,
    message: escalationText(canonicalPath, describeTier(tier, policy.mode), access, options.tool ?? toolSlot),
    suggestedGrant,
  };
}
