import type { AccessDecision } from './access-decision.js';
import { canonicalizePath, canonicalizePathSync, type PathIntent, type PathProblem } from './canonicalize-path.js';
import { checkAccess } from './check-access.js';
import type { PathAccess, PathTier, SandboxActor, SandboxPolicy } from './sandbox-policy.js';

const issued = new WeakSet<object>();
const constructionToken = Symbol('ResolvedPath');
/** Module-private factory, assigned in the class's static block: nothing outside this file can issue. */
let issueResolvedPath: (path: string, access: PathAccess, actor: SandboxActor, tier: PathTier) => ResolvedPath;

/**
 * A path that went through canonicalisation AND `checkAccess` and was allowed (§6.2). Only
 * `resolveCheckedPath` creates one; `ResolvedPath.isInstance` recognises genuine ones (a look-alike
 * object with the same fields is rejected), so builtins can build their `CheckedPath` on it.
 */
export class ResolvedPath {
  /** Canonical absolute path the caller must use for the file-system operation. */
  readonly path: string;
  readonly access: PathAccess;
  readonly actor: SandboxActor;
  readonly tier: PathTier;

  private constructor(token: symbol, path: string, access: PathAccess, actor: SandboxActor, tier: PathTier) {
    if (token !== constructionToken) throw new TypeError('ResolvedPath is created by resolveCheckedPath only');
    this.path = path;
    this.access = access;
    this.actor = actor;
    this.tier = tier;
    issued.add(this);
    Object.freeze(this);
  }

  static {
    issueResolvedPath = (path, access, actor, tier) => new ResolvedPath(constructionToken, path, access, actor, tier);
  }

  static isInstance(value: unknown): value is ResolvedPath {
    return typeof value === 'object' && value !== null && issued.has(value);
  }
}

export interface ResolveCheckedPathOptions {
  readonly cwd: string;
  readonly intent: PathIntent;
  readonly access: PathAccess;
  /** Default `file-tool`. */
  readonly actor?: SandboxActor;
  /** Tool named in the retry hint of a denial. */
  readonly tool?: string;
}

/**
 * Outcome of `resolveCheckedPath`: allowed (with the `ResolvedPath`), denied (the decision carries
 * the model-facing text and `sandboxDenied`), or unresolvable (missing, NUL byte, dangling link…).
 */
export type CheckedPathResult =
  | { readonly status: 'allowed'; readonly resolved: ResolvedPath }
  | { readonly status: 'denied'; readonly decision: Extract<AccessDecision, { allowed: false }> }
  | { readonly status: 'unresolvable'; readonly problem: PathProblem; readonly message: string };

function finish(
  policy: SandboxPolicy,
  resolution: Awaited<ReturnType<typeof canonicalizePath>>,
  options: ResolveCheckedPathOptions,
): CheckedPathResult {
  if (!resolution.ok) return { status: 'unresolvable', problem: resolution.problem, message: resolution.message };
  const actor = options.actor ?? 'file-tool';
  const decision = checkAccess(policy, resolution.path, options.access, actor, options.tool === undefined ? {} : { tool: options.tool });
  if (!decision.allowed) return { status: 'denied', decision };
  return { status: 'allowed', resolved: issueResolvedPath(resolution.path, options.access, actor, decision.tier) };
}

/**
 * `resolve_path` of spec §6.2 minus the tool-specific parts: canonicalise `input` against
 * `options.cwd`, then `checkAccess` the real path with this call's policy.
 */
export async function resolveCheckedPath(
  policy: SandboxPolicy,
  input: string,
  options: ResolveCheckedPathOptions,
): Promise<CheckedPathResult> {
  return finish(policy, await canonicalizePath(input, options), options);
}

/** Synchronous twin of `resolveCheckedPath`. */
export function resolveCheckedPathSync(
  policy: SandboxPolicy,
  input: string,
  options: ResolveCheckedPathOptions,
): CheckedPathResult {
  return finish(policy, canonicalizePathSync(input, options), options);
}
