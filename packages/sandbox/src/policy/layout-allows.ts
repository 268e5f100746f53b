import { isInsideAnyScopedPath } from './is-inside-scoped-path.js';
import { isInsideAnyProtectedEntry } from './letter-case.js';
import { protectedParents } from './protected-parents.js';
import type { SandboxLayout, ScopedPath } from './sandbox-layout.js';
import type { PathAccess, SandboxActor } from './sandbox-policy.js';
import {
  deepestRegionOf,
  findBareRepositoryKinds,
  findRepositoryHooksFolders,
  isStrictlyBelow,
  matchSensitiveNames,
  outermostRegionOf,
  type SensitiveKindMatch,
} from './sensitive-kinds.js';

/** `layoutAllows` with the reason a write was refused by a kind rule, when it was (for the tier of the denial). */
export interface LayoutJudgement {
  readonly allowed: boolean;
  /** The tier 3 kind entry that refused the write, when a kind rule did. */
  readonly kind?: SensitiveKindMatch;
}

/**
 * The kinds of `path`, computed at most once per judgement: name rules first (pure), then — only
 * if no name rule already refuses — the repositories' hooks folders (reads the host).
 */
class KindsOfPath {
  #names: SensitiveKindMatch[] | undefined;
  #hooks: SensitiveKindMatch[] | undefined;
  #bare: SensitiveKindMatch[] | undefined;

  constructor(
    private readonly layout: SandboxLayout,
    private readonly path: string,
  ) {}

  /** The first kind entry strictly below the deepest of `regions` that holds the path, if any. */
  refusing(regions: readonly ScopedPath[]): SensitiveKindMatch | undefined {
    const rules = this.layout.sensitiveKinds;
    if (rules === undefined) return undefined;
    const region = deepestRegionOf(this.path, regions);
    if (region === undefined) return undefined;
    this.#names ??= matchSensitiveNames(this.path, rules.names, this.layout.letterCase);
    const byName = this.#names.find((match) => isStrictlyBelow(match, region));
    if (byName !== undefined || !rules.repositoryHooksFolders) return byName;
    this.#bare ??= findBareRepositoryKinds(this.path);
    const bare = this.#bare.find((match) => isStrictlyBelow(match, region));
    if (bare !== undefined) return bare;
    if (this.#hooks === undefined) {
      const top = outermostRegionOf(this.path, [...this.layout.writable, ...this.layout.writableGrants]);
      this.#hooks = top === undefined ? [] : findRepositoryHooksFolders(this.path, top.path, this.layout.homeDirectory, this.layout.letterCase);
    }
    return this.#hooks.find((match) => isStrictlyBelow(match, region));
  }
}

/**
 * The semantics of `SandboxLayout`, literally (see its doc comment), with the kind rule that
 * refused a write when one did. `checkAccess` answers with this, so the fence equals what the
 * kernel renderers are asked to enforce. Deny-side entries match with the layout's letter case;
 * allow-side entries exactly.
 */
export function judgeLayoutAccess(layout: SandboxLayout, path: string, access: PathAccess, actor: SandboxActor): LayoutJudgement {
  const denied = (entries: SandboxLayout['readOnly']): boolean => isInsideAnyProtectedEntry(path, entries, layout.letterCase);
  const readable = !denied(layout.unreadable) || isInsideAnyScopedPath(path, layout.readableGrants);
  if (access === 'read') return { allowed: readable };
  if (actor === 'process' && isInsideAnyScopedPath(path, layout.deviceFiles)) return { allowed: true };
  // A folder holding protected entries is never itself writable, whatever the grant.
  if (denied(protectedParents(layout))) return { allowed: false };
  const kinds = new KindsOfPath(layout, path);
  let refusedBy: SensitiveKindMatch | undefined;
  if (isInsideAnyScopedPath(path, layout.writable) && !denied(layout.readOnly) && !denied(layout.unreadable)) {
    refusedBy = kinds.refusing(layout.writable);
    if (refusedBy === undefined) return { allowed: true };
  }
  if (isInsideAnyScopedPath(path, layout.writableGrants) && !denied(layout.hardProtected)) {
    const refused = kinds.refusing(layout.writableGrants);
    if (refused === undefined) return { allowed: true };
    refusedBy ??= refused;
  }
  return refusedBy === undefined ? { allowed: false } : { allowed: false, kind: refusedBy };
}

/** The semantics of `SandboxLayout` as a yes or no (see `judgeLayoutAccess`). */
export function layoutAllows(layout: SandboxLayout, path: string, access: PathAccess, actor: SandboxActor): boolean {
  return judgeLayoutAccess(layout, path, access, actor).allowed;
}
