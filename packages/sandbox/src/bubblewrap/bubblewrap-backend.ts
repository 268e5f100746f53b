import type { SandboxAvailability, SandboxBackend, SandboxCommand, WrappedCommand } from '../backend/sandbox-backend.js';
import { goBuildCacheEnvironment } from '../backend/go-build-cache-environment.js';
import { SandboxUnavailableError } from '../backend/sandbox-unavailable-error.js';
import { withGitAudit } from '../backend/with-git-audit.js';
import { deriveSandboxLayout } from '../policy/derive-sandbox-layout.js';
import { SandboxConfigurationError } from '../policy/sandbox-error.js';
import type { SandboxPolicy } from '../policy/sandbox-policy.js';
import { defaultRegistryDirectory } from './default-registry-directory.js';
import { findBubblewrap } from './find-bubblewrap.js';
import { findCaseFoldingFolder } from './find-case-folding-folder.js';
import { landlockScope } from '../landlock/landlock-scope.js';
import type { LandlockScope } from '../landlock/landlock-scope.js';
import { scopedCommand } from '../landlock/scoped-command.js';
import { MountPointLedger, mountPointLedgerFor } from './mount-point-ledger.js';
import { runBubblewrapSelfCheck } from './run-bubblewrap-self-check.js';
import { wrapWithBubblewrap } from './wrap-with-bubblewrap.js';
import { wrapStaged } from '../staging/wrap-staged.js';
import { runStagedSelfCheck } from '../staging/run-staged-self-check.js';

export interface BubblewrapBackendOptions {
  /**
   * The bwrap executable, absolute. Default: the first `bwrap` on the host's `PATH` when the
   * backend is made (absolute folders only), else `/usr/bin/bwrap` (`findBubblewrap`).
   */
  readonly bwrapPath?: string;
  /**
   * The machine-wide registry of the mount points bwrap creates on the host (§3.7), shared by
   * every OpenWork process that uses the same folder. Default `/dev/shm/openwork-<uid>/mount-points`
   * (see `defaultRegistryDirectory`). It must not be writable inside the sandbox.
   */
  readonly registryDirectory?: string;
  /**
   * Run every command in a Landlock domain that scopes abstract UNIX sockets and signals
   * (architecture §3.7): it cannot reach an abstract socket of a host process (`@/tmp/.X11-unix/X0`,
   * a D-Bus bus) or signal a process outside its sandbox, while its own abstract sockets work.
   * Default `true`; applied where the kernel can (`landlockScope`). `false` leaves abstract
   * sockets of the host reachable with `network: 'allow'` (for comparison runs and hosts where
   * a tool needs one).
   */
  readonly landlockScope?: boolean;
  /**
   * Staged writes (architecture §3.10): each writable folder is an overlay inside the sandbox and
   * what the command wrote reaches the host only after `release()` judged every path by rule.
   * Default `true`; `false` renders the earlier mount-per-protected-name layout, which protects
   * names only at the places it knows — kept for comparison runs (benchmarks), not for use.
   */
  readonly stagedWrites?: boolean;
}

/**
 * Linux bubblewrap (architecture §3.4): wraps argv in `bwrap` with mounts rendered from
 * `deriveSandboxLayout(policy)`, the same layout the fence and Seatbelt use. Never spawns the
 * command (spec §4); the caller spawns `argv` and calls `release()` after the process exited,
 * which removes the mount points bwrap had to create on the host.
 */
export class BubblewrapBackend implements SandboxBackend {
  readonly kind = 'bubblewrap' as const;
  readonly bwrapPath: string;
  readonly registryDirectory: string | undefined;
  readonly #landlockScope: boolean;
  readonly #stagedWrites: boolean;
  #unavailableReason: string | undefined;

  constructor(options: BubblewrapBackendOptions = {}) {
    const bwrapPath = options.bwrapPath ?? findBubblewrap(process.env['PATH']);
    if (!bwrapPath.startsWith('/') || bwrapPath.includes('\0')) {
      throw new SandboxConfigurationError(`bwrapPath must be an absolute path, got ${JSON.stringify(bwrapPath)}`);
    }
    this.bwrapPath = bwrapPath;
    const registry = options.registryDirectory;
    if (registry !== undefined && (!registry.startsWith('/') || registry.includes('\0'))) {
      throw new SandboxConfigurationError(`registryDirectory must be an absolute path, got ${JSON.stringify(registry)}`);
    }
    this.registryDirectory = registry;
    this.#landlockScope = options.landlockScope ?? true;
    this.#stagedWrites = options.stagedWrites ?? true;
  }

  /**
   * What the Landlock scope is for commands of sessions with this OpenWork home (§3.7): applied
   * (with the helper and the kernel's ABI) or not, and why; `openwork doctor` shows it. Throws
   * `SandboxUnavailableError` when the helper was changed and cannot be rewritten.
   */
  landlockScope(openworkHome: string): LandlockScope {
    return this.#landlockScope ? landlockScope(openworkHome) : { scoped: false, reason: 'turned off (BubblewrapBackendOptions.landlockScope: false)' };
  }

  /** Runs `true` under real bwrap arguments; remembers a failure so `wrap` refuses afterwards (10d). */
  async selfCheck(): Promise<SandboxAvailability> {
    const availability = this.#stagedWrites
      ? await runStagedSelfCheck(this.bwrapPath)
      : await runBubblewrapSelfCheck(this.bwrapPath, (directory) => new MountPointLedger(directory, { reaper: false }));
    this.#unavailableReason = availability.available ? undefined : availability.reason;
    return availability;
  }

  wrap(command: SandboxCommand, policy: SandboxPolicy): WrappedCommand {
    if (this.#unavailableReason !== undefined) throw new SandboxUnavailableError(this.#unavailableReason);
    const layout = deriveSandboxLayout(policy);
    // §3.7: the helper is checked byte for byte right before bwrap is told to run it.
    const scope = this.landlockScope(policy.openworkHome);
    const confined = scope.scoped ? scopedCommand(scope.helperPath, command) : command;
    // Architecture §3.10: every write judged by rule before it reaches the host. The judge matches
    // names in the layout's letter case, so a case-insensitive folder needs nothing more.
    if (this.#stagedWrites) {
      return wrapStaged(this.bwrapPath, confined, policy, layout);
    }
    const folding = findCaseFoldingFolder(layout);
    if (folding !== undefined) {
      throw new SandboxUnavailableError(
        `bubblewrap cannot protect this session: ${folding} is on a case-insensitive file system, where a protected name can be reached under another spelling (.GIT/HOOKS for .git/hooks) that a mount does not cover. Use a case-sensitive file system for the workspace.`,
      );
    }
    if (this.registryDirectory === undefined) {
      return withGitAudit(wrapWithBubblewrap(this.bwrapPath, confined, layout, mountPointLedgerFor(defaultRegistryDirectory(policy.openworkHome))), policy);
    }
    // A registry folder of the caller's choice may lie in a writable root: read-only inside, like the OpenWork home.
    const registry = { path: this.registryDirectory, scope: 'subtree' } as const;
    const protectedLayout = { ...layout, readOnly: [...layout.readOnly, registry], hardProtected: [...layout.hardProtected, registry] };
    return withGitAudit(wrapWithBubblewrap(this.bwrapPath, confined, protectedLayout, mountPointLedgerFor(this.registryDirectory)), policy);
  }

  /** §7.9: `GOCACHE` in a temp root, since the cache under home is not writable here (`goBuildCacheEnvironment`). */
  commandEnvironment(policy: SandboxPolicy): Readonly<Record<string, string>> {
    return goBuildCacheEnvironment(policy);
  }
}
