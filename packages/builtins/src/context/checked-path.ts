import type { PathAccess, PathIntent, PathTier } from '@openwork/sandbox';

const issued = new WeakSet<object>();
const constructionToken = Symbol('CheckedPath');

/** The parts of a `CheckedPath`, set only by `resolvePath` and by walking a checked root. */
export interface CheckedPathParts {
  /** Canonical absolute real path: the only path a file-system call may use. */
  readonly path: string;
  /** The path as the model gave it (before `~` expansion). */
  readonly input: string;
  /** Relative to the workspace when inside it, else absolute (§7.2). */
  readonly displayPath: string;
  readonly access: PathAccess;
  readonly intent: PathIntent;
  /** Tier of §3.2 the path fell in when it was allowed (for display and logs). */
  readonly tier: PathTier;
}

/** Module-private factory: assigned in the class's static block, exported to this package only. */
let issueCheckedPath: (parts: CheckedPathParts) => CheckedPath;

/**
 * A path that went through `ToolSessionContext.resolvePath` (§6.2): `~` expanded, made absolute
 * against the working directory, canonicalised, and allowed by `checkAccess` under the policy of
 * this call. Its constructor is private and the factory is module-private, so nothing else can
 * make one; `CheckedPath.isInstance` tells a genuine one from a look-alike. Every file-system
 * call of a built-in tool takes its path from `.path` of one of these.
 */
export class CheckedPath {
  readonly path: string;
  readonly input: string;
  readonly displayPath: string;
  readonly access: PathAccess;
  readonly intent: PathIntent;
  readonly tier: PathTier;

  private constructor(token: symbol, parts: CheckedPathParts) {
    if (token !== constructionToken) throw new TypeError('A CheckedPath is made by ToolSessionContext.resolvePath only.');
    this.path = parts.path;
    this.input = parts.input;
    this.displayPath = parts.displayPath;
    this.access = parts.access;
    this.intent = parts.intent;
    this.tier = parts.tier;
    issued.add(this);
    Object.freeze(this);
  }

  static {
    issueCheckedPath = (parts) => new CheckedPath(constructionToken, parts);
  }

  /** True only for values made by `resolvePath` (or a checked walk) in this copy of the package. */
  static isInstance(value: unknown): value is CheckedPath {
    return typeof value === 'object' && value !== null && issued.has(value);
  }

  toString(): string {
    return this.path;
  }
}

/** @internal For `ToolSessionContext` only; not exported from the package. */
export function createCheckedPath(parts: CheckedPathParts): CheckedPath {
  return issueCheckedPath(parts);
}
