import { SandboxError } from '../policy/sandbox-error.js';
import { MountPointRegistry, deadOwnerGraceMs, killOrphanedSandboxes } from './mount-point-registry.js';
import type { PlantedNode } from './mount-point-registry.js';
import { startMountPointReaper } from './start-mount-point-reaper.js';

/** What one wrapped call holds in the ledger; `release()` is idempotent. */
export interface MountPointClaim {
  release(): Promise<void>;
}

export interface MountPointLedgerOptions {
  /** Start a reaper process on the first claim, and end orphaned sandboxes at start-up (default true; the self-check's scratch ledger needs neither). */
  readonly reaper?: boolean;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Host mount points that bwrap (or `wrap` itself, for a missing write grant) creates for names that
 * did not exist, recorded machine-wide in a `MountPointRegistry` folder (architecture §3.7): a
 * node is removed only when no call of any process — this one, another OpenWork process, or one
 * killed less than a grace period ago — still stands on it, deepest first so that created parents
 * (`.git` for `.git/hooks`) go too, and only if it is still exactly what was planted.
 *
 * The first use in a process is the start-up recovery: it removes what crashed processes left
 * behind, and ends sandboxes of dead hosts. The first claim starts this process's reaper.
 */
export class MountPointLedger {
  readonly registry: MountPointRegistry;
  readonly #reaper: boolean;
  #recovered = false;
  #reaperStarted = false;

  constructor(directory: string, options: MountPointLedgerOptions = {}) {
    this.registry = new MountPointRegistry(directory);
    this.#reaper = options.reaper ?? true;
  }

  /** Read before rendering; a claim made with a stale generation is refused (see `claim`). */
  generation(): string {
    this.#recover();
    return this.registry.generation();
  }

  /**
   * Register a call before anything is created: `created` (paths that did not exist, with the
   * content `wrap` plants in file mount points, `planted`), and every mount destination. Returns
   * undefined when the host may have changed since `generation` was read — another process removed
   * mount points meanwhile — so that the caller renders again from what is there now.
   */
  claim(created: readonly string[], destinations: readonly string[], planted: ReadonlyMap<string, string>, generation: string): MountPointClaim | undefined {
    this.#recover();
    const nodes: PlantedNode[] = [...new Set(created)].map((path) => ({ path, content: planted.get(path) ?? '' }));
    const registered = this.registry.register(nodes, [...new Set([...created, ...destinations])], generation);
    if (registered === undefined) return undefined;
    // Every host that starts sandboxes gets its reaper, also when nothing was created: it ends
    // sandboxes whose start the host's death cut short (`killOrphanedSandboxes`).
    if (this.#reaper && !this.#reaperStarted) {
      this.#reaperStarted = true;
      startMountPointReaper(this.registry.directory, this.registry.owner);
    }
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        const failures = this.registry.release(registered);
        if (failures.length > 0) throw new SandboxError(`could not remove bubblewrap mount points: ${failures.join('; ')}`);
      },
    };
  }

  /** Sweep once per process before the first call; wait out a crash that just happened so that its nodes go now. */
  #recover(): void {
    if (this.#recovered) return;
    this.#recovered = true;
    // A host and its reaper both killed: their orphaned sandboxes end now (§3.7).
    if (this.#reaper) killOrphanedSandboxes();
    if (this.registry.sweep().pendingDead) {
      sleepSync(deadOwnerGraceMs);
      this.registry.sweep();
    }
  }
}

const ledgers = new Map<string, MountPointLedger>();

/** One ledger per registry folder and process: every `BubblewrapBackend` shares it. */
export function mountPointLedgerFor(directory: string): MountPointLedger {
  let ledger = ledgers.get(directory);
  if (ledger === undefined) {
    ledger = new MountPointLedger(directory);
    ledgers.set(directory, ledger);
  }
  return ledger;
}
