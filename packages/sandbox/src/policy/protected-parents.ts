import { isInsideScopedPath } from './is-inside-scoped-path.js';
import type { SandboxLayout, ScopedPath } from './sandbox-layout.js';

const cache = new WeakMap<SandboxLayout, readonly ScopedPath[]>();

function parentOf(path: string): string {
  const index = path.lastIndexOf('/');
  return index <= 0 ? '/' : path.slice(0, index);
}

/**
 * The folders that hold protected entries inside something writable (architecture §3.2
 * "treat every protected path as something an attacker will try to rename"): every folder from a
 * writable entry (itself included, `/` excluded) down to the parent of a `readOnly` or `unreadable`
 * entry inside it — and, inside a write grant, down to the parent of a tier 1 entry. Exact paths:
 * the folder itself is not writable (no create, rename, move onto, remove), what is inside it is
 * unaffected. Otherwise `mv .git .g && echo … > .g/hooks/pre-commit && mv .g .git` rewrites hooks,
 * and in full-access `mv ~/.config ~/.cfg && cat ~/.cfg/gh/hosts.yml` reads a credential: Seatbelt
 * checks only the names an operation touches, and bubblewrap pins these folders (EBUSY).
 *
 * Derived from the layout alone, so the fence (`layoutAllows`), the Seatbelt profile and the
 * evaluator see the same list; new protected entries in the layout flow in by themselves.
 */
export function protectedParents(layout: SandboxLayout): readonly ScopedPath[] {
  const cached = cache.get(layout);
  if (cached !== undefined) return cached;
  const regions: Array<{ region: ScopedPath; inside: readonly ScopedPath[] }> = [
    ...layout.writable.map((region) => ({ region, inside: [...layout.readOnly, ...layout.unreadable] })),
    ...layout.writableGrants.map((region) => ({ region, inside: layout.hardProtected })),
  ];
  const folders = new Set<string>();
  for (const { region, inside } of regions) {
    if (region.scope !== 'subtree') continue;
    for (const entry of inside) {
      if (entry.path === region.path || !isInsideScopedPath(entry.path, region)) continue;
      for (let folder = parentOf(entry.path); folder !== '/'; folder = parentOf(folder)) {
        folders.add(folder);
        if (folder === region.path) break;
      }
    }
  }
  const result = Object.freeze(
    [...folders].sort().map((path) => Object.freeze({ path, scope: 'exact' as const })),
  );
  cache.set(layout, result);
  return result;
}
