import type { SandboxAvailability, SandboxBackend, SandboxCommand, WrappedCommand } from '../backend/sandbox-backend.js';
import { goBuildCacheEnvironment } from '../backend/go-build-cache-environment.js';
import { packageCacheEnvironment } from '../backend/package-cache-environment.js';
import { SandboxUnavailableError } from '../backend/sandbox-unavailable-error.js';
import { deriveSandboxLayout } from '../policy/derive-sandbox-layout.js';
import { SandboxConfigurationError } from '../policy/sandbox-error.js';
import type { SandboxPolicy } from '../policy/sandbox-policy.js';
import { findBubblewrap } from './find-bubblewrap.js';
import { landlockScope } from '../landlock/landlock-scope.js';
import type { LandlockScope } from '../landlock/landlock-scope.js';
import { scopedCommand } from '../landlock/scoped-command.js';
import { runStagedSelfCheck } from '../staging/run-staged-self-check.js';
import { wrapStaged } from '../staging/wrap-staged.js';
import type { StagedWrappedCommand } from '../staging/wrap-staged.js';

export interface BubblewrapBackendOptions {
  /**
   * The bwrap executable, absolute. Default: the first `bwrap` on the host's `PATH` when the
   * backend is made (absolute folders only), else `/usr/bin/bwrap` (`findBubblewrap`).
   */
  readonly bwrapPath?: string;
  /**
   * Run every command in a Landlock domain that scopes abstract UNIX sockets and signals
   * (architecture §3.7): it cannot reach an abstract socket of a host process (`@/tmp/.X11-unix/X0`,
   * a D-Bus bus) or signal a process outside its sandbox, while its own abstract sockets work.
   * Default `true`; applied where the kernel can (`landlockScope`). `false` leaves abstract
   * sockets of the host reachable with `network: 'allow'` (for comparison runs and hosts where
   * a tool needs one).
   */
  readonly landlockScope?: boolean;
}

/**
 * Linux bubblewrap (architecture §3.4, §3.10): wraps argv in `bwrap` with `/` read-only, the
 * credential and socket masks of `deriveSandboxLayout(policy)` — the layout the fence and
 * Seatbelt use — and every writable folder an overlay whose writes are staged. Never spawns the
 * command (spec §4); the caller spawns `argv` and calls `release()` after the process exited,
 * which applies to the host what the rules allow and reports the rest (`StagedReleaseReport`).
 */
export class BubblewrapBackend implements SandboxBackend {
  readonly kind = 'bubblewrap' as const;
  readonly bwrapPath: string;
  readonly #landlockScope: boolean;
  #unavailableReason: string | undefined;

  constructor(options: BubblewrapBackendOptions = {}) {
    const bwrapPath = options.bwrapPath ?? findBubblewrap(process.env['PATH']);
    if (!bwrapPath.startsWith('/') || bwrapPath.includes('\0')) {
      throw new SandboxConfigurationError(`bwrapPath must be an absolute path, got ${JSON.stringify(bwrapPath)}`);
    }
    this.bwrapPath = bwrapPath;
    this.#landlockScope = options.landlockScope ?? true;
  }

  /**
   * What the Landlock scope is for commands of sessions with this OpenWork home (§3.7): applied
   * (with the helper and the kernel's ABI) or not, and why; `openwork doctor` shows it. Throws
   * `SandboxUnavailableError` when the helper was changed and cannot be rewritten.
   */
  landlockScope(openworkHome: string): LandlockScope {
    return this.#landlockScope ? landlockScope(openworkHome) : { scoped: false, reason: 'turned off (BubblewrapBackendOptions.landlockScope: false)' };
  }

  /** Runs one staged command for real (overlay, helper, apply, a refusal); remembers a failure so `wrap` refuses afterwards (10d). */
  async selfCheck(): Promise<SandboxAvailability> {
    const availability = await runStagedSelfCheck(this.bwrapPath);
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
    return wrapStaged(this.bwrapPath, confined, policy, layout);
  }

  /** §7.9: `GOCACHE` and the package managers' caches in a temp root, since the caches under home are not writable here (`goBuildCacheEnvironment`, `packageCacheEnvironment`). */
  commandEnvironment(policy: SandboxPolicy): Readonly<Record<string, string>> {
    return { ...goBuildCacheEnvironment(policy), ...packageCacheEnvironment(policy) };
  }
}
