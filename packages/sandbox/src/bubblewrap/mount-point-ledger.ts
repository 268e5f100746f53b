import * as fs from 'node:fs';
import { SandboxError } from '../policy/sandbox-error.js';

/** What one wrapped call holds in the ledger; `release()` is idempotent. */
export interface MountPointClaim {
  release(): Promise<void>;
}

function depth(path: string): number {
  return path.split('/').length;
}

function parentOf(path: string): string {
  const index = path.lastIndexOf('/');
  return index <= 0 ? '/' : path.slice(0, index);
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined;
}

/** Codes that mean "someone else's content or already gone": keep quiet and keep the node. */
const expectedRemovalCodes = new Set(['ENOENT', 'ENOTEMPTY', 'EEXIST', 'EBUSY', 'ENOTDIR']);

/**
 * Remove `path` only if it still looks like the mount point we made: an empty directory, or a
 * regular file holding exactly what was planted there (empty, or `.\n` for a `commondir`).
 * Anything else, a symbolic link or a device was made by someone else in the meantime and stays
 * (architecture §3.4: remove the mount points, only those).
 */
function removeIfLeftOver(path: string, planted: string): void {
  const stats = fs.lstatSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return;
  if (stats.isFile()) {
    if (stats.size === Buffer.byteLength(planted) && (planted === '' || fs.readFileSync(path, 'utf8') === planted)) fs.unlinkSync(path);
  } else if (stats.isDirectory()) {
    fs.rmdirSync(path); // fails with ENOTEMPTY when someone put something inside
  }
}

/**
 * Host mount points that bwrap (or `wrap` itself, for a missing write grant) creates for names that
 * did not exist, counted per path so that two calls running at the same time in this process
 * never remove a mount point the other still stands on. Removal happens when the last claim on a
 * path is released, deepest path first so that created parents (`.git` for `.git/hooks`) go too.
 * Removal is synchronous on purpose: no other call can claim a path between the check and the
 * unlink.
 */
export class MountPointLedger {
  readonly #claims = new Map<string, number>();
  /** What was planted in file mount points that are not empty, by path. */
  readonly #planted = new Map<string, string>();

  /**
   * Claim `created` (paths that did not exist before this call) and, among `destinations`, every
   * path — and ancestor — another live call created: this call's mounts stand on them too.
   * `planted` is the content `wrap` wrote into file mount points, so that they are recognised.
   */
  claim(created: readonly string[], destinations: readonly string[], planted: ReadonlyMap<string, string> = new Map()): MountPointClaim {
    const paths = new Set(created);
    for (const [path, content] of planted) if (content !== '') this.#planted.set(path, content);
    for (const destination of destinations) {
      for (let path = destination; path !== '/'; path = parentOf(path)) {
        if (this.#claims.has(path)) paths.add(path);
      }
    }
    for (const path of paths) this.#claims.set(path, (this.#claims.get(path) ?? 0) + 1);
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        this.#release([...paths]);
      },
    };
  }

  /** Paths currently claimed by at least one live call (for tests and diagnostics). */
  get claimedPaths(): readonly string[] {
    return [...this.#claims.keys()];
  }

  #release(paths: readonly string[]): void {
    const removable: string[] = [];
    for (const path of paths) {
      const count = (this.#claims.get(path) ?? 1) - 1;
      if (count > 0) {
        this.#claims.set(path, count);
      } else {
        this.#claims.delete(path);
        removable.push(path);
      }
    }
    const failures: string[] = [];
    for (const path of removable.sort((a, b) => depth(b) - depth(a))) {
      const planted = this.#planted.get(path) ?? '';
      this.#planted.delete(path);
      try {
        removeIfLeftOver(path, planted);
      } catch (error) {
        const code = errorCode(error);
        if (code === undefined || !expectedRemovalCodes.has(code)) failures.push(`${path}: ${code ?? String(error)}`);
      }
    }
    if (failures.length > 0) {
      throw new SandboxError(`could not remove bubblewrap mount points: ${failures.join('; ')}`);
    }
  }
}

/** One ledger per process: every `BubblewrapBackend` shares it, so concurrent calls coordinate. */
export const sharedMountPointLedger = new MountPointLedger();
