import { checkAccess, deriveSandboxLayout, isInsideScopedPath, mayHoldProcessSecrets, type SandboxPolicy, type ScopedPath } from '@openwork/sandbox';

/**
 * Acceptance 10b for a walk: no credential path is listed or read. `readable` is the policy's own
 * `checkAccess` (read, file tool). `mayHoldCredentials` lets the walk skip that check below a
 * directory that provably holds no credential path — one that is not inside any unreadable entry
 * and has none at or below it — since only those entries deny a read (architecture §3.2, the
 * `SandboxLayout` read rule), compared without ASCII letter case where the policy's file system
 * folds it. Everywhere else each entry is checked — below procfs too, where process secrets
 * (`environ`, `mem` …) are credentials for file tools.
 */
export class CredentialFence {
  readonly #policy: SandboxPolicy;
  readonly #unreadable: readonly ScopedPath[];
  /** On a case-insensitive file system the policy ignores ASCII letter case on its deny side. */
  readonly #fold: (path: string) => string;

  constructor(policy: SandboxPolicy) {
    this.#policy = policy;
    const layout = deriveSandboxLayout(policy);
    this.#fold = layout.letterCase === 'sensitive' ? (path) => path : (path) => path.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
    this.#unreadable = layout.unreadable.map((entry) => ({ path: this.#fold(entry.path), scope: entry.scope }));
  }

  /** Whether an entry of `directory` could be a credential path (then each one is checked). */
  mayHoldCredentials(directory: string): boolean {
    const folded = this.#fold(directory);
    if (mayHoldProcessSecrets(this.#policy, directory)) return true;
    const prefix = folded === '/' ? '/' : `${folded}/`;
    return this.#unreadable.some((entry) => isInsideScopedPath(folded, entry) || entry.path === folded || entry.path.startsWith(prefix));
  }

  /** `checkAccess(policy, path, 'read', 'file-tool')`: may this call list or read `path`? */
  readable(path: string): boolean {
    return checkAccess(this.#policy, path, 'read', 'file-tool').allowed;
  }
}
