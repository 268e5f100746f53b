import { execFile } from 'node:child_process';
import { SandboxUnavailableError } from '../backend/sandbox-unavailable-error.js';
import type { SandboxAvailability, SandboxBackend, SandboxCommand, WrappedCommand } from '../backend/sandbox-backend.js';
import { goBuildCacheEnvironment } from '../backend/go-build-cache-environment.js';
import { packageCacheEnvironment } from '../backend/package-cache-environment.js';
import { defaultDeviceFiles } from '../policy/default-protected-paths.js';
import { deriveSandboxLayout } from '../policy/derive-sandbox-layout.js';
import { SandboxConfigurationError } from '../policy/sandbox-error.js';
import type { SandboxLayout } from '../policy/sandbox-layout.js';
import type { SandboxPolicy } from '../policy/sandbox-policy.js';
import { renderSeatbeltProfile, seatbeltArguments } from './seatbelt-profile.js';

export interface SeatbeltBackendOptions {
  /** Default `process.platform`; a test seam to prove the off-macOS answer. */
  readonly platform?: NodeJS.Platform;
  /** Default `/usr/bin/sandbox-exec`. Absolute. */
  readonly sandboxExecPath?: string;
}

/**
 * Layouts with one entry of every kind, under a name that does not exist, so the self-check
 * profiles contain every statement shape `wrap` will ever emit (require-all/require-not, literal,
 * subpath, regex parameters of both letter cases, param, grants, folders holding protected
 * entries, device rules, here-documents, the platform and network rules). If this macOS rejects
 * any of them, the self-check fails instead of every later bash call.
 */
const selfCheckBase = '/openwork-seatbelt-self-check';
const selfCheckLayouts: readonly SandboxLayout[] = (['sensitive', 'insensitive'] as const).map((letterCase) => ({
  writable: [{ path: `${selfCheckBase}/root`, scope: 'subtree' }],
  readOnly: [
    { path: `${selfCheckBase}/root/.openwork`, scope: 'subtree' },
    { path: `${selfCheckBase}/root/.git/hooks`, scope: 'subtree' },
    { path: `${selfCheckBase}/root/.git/config`, scope: 'exact' },
  ],
  unreadable: [{ path: `${selfCheckBase}/root/.ssh`, scope: 'subtree' }],
  hardProtected: [{ path: `${selfCheckBase}/root/.openwork`, scope: 'subtree' }],
  readableGrants: [{ path: `${selfCheckBase}/root/.ssh/config`, scope: 'exact' }],
  writableGrants: [{ path: `${selfCheckBase}/root/.git/hooks/pre-commit`, scope: 'exact' }],
  deviceFiles: defaultDeviceFiles.map((device) => ({ path: device, scope: 'exact' as const })),
  network: 'allow',
  letterCase,
}));

/**
 * Where bash 3.2 puts here-documents: `$TMPDIR` (a temp root of the policy), else `P_tmpdir`,
 * which is `/var/tmp` on macOS.
 */
function hereDocumentDirectories(policy: SandboxPolicy): readonly string[] {
  return [...policy.tempRoots, '/private/var/tmp'];
}

/**
 * macOS Seatbelt (architecture §3.4): wraps argv in `sandbox-exec` with the profile derived from the
 * call's policy. Never spawns the command itself (spec §4); `selfCheck` runs one trivial command
 * under a profile from the same renderer and remembers a failure, so `wrap` refuses afterwards (10d).
 */
export class SeatbeltBackend implements SandboxBackend {
  readonly kind = 'seatbelt' as const;
  private readonly platform: NodeJS.Platform;
  private readonly sandboxExecPath: string;
  #unavailableReason: string | undefined;

  constructor(options: SeatbeltBackendOptions = {}) {
    const sandboxExecPath = options.sandboxExecPath ?? '/usr/bin/sandbox-exec';
    if (!sandboxExecPath.startsWith('/') || sandboxExecPath.includes('\0')) {
      throw new SandboxConfigurationError(`sandboxExecPath must be an absolute path, got ${JSON.stringify(sandboxExecPath)}`);
    }
    this.platform = options.platform ?? process.platform;
    this.sandboxExecPath = sandboxExecPath;
    if (this.platform !== 'darwin') {
      this.#unavailableReason = `Seatbelt (sandbox-exec) exists only on macOS; this is ${this.platform}`;
    }
  }

  async selfCheck(): Promise<SandboxAvailability> {
    if (this.platform !== 'darwin') {
      return { available: false, reason: this.#unavailableReason ?? 'Seatbelt needs macOS' };
    }
    let availability: SandboxAvailability = { available: true };
    for (const layout of selfCheckLayouts) {
      const profile = renderSeatbeltProfile(layout, { hereDocumentDirectories: [`${selfCheckBase}/tmp`] });
      availability = await this.runSelfCheck(seatbeltArguments(profile, ['/usr/bin/true']));
      if (!availability.available) break;
    }
    this.#unavailableReason = availability.available ? undefined : availability.reason;
    return availability;
  }

  private runSelfCheck(argv: readonly string[]): Promise<SandboxAvailability> {
    return new Promise<SandboxAvailability>((resolve) => {
      execFile(this.sandboxExecPath, argv.slice(1), { timeout: 10_000 }, (error, _stdout, stderr) => {
        if (error === null) resolve({ available: true });
        else resolve({ available: false, reason: `${this.sandboxExecPath} failed its self-check: ${String(stderr).trim() || error.message}` });
      });
    });
  }

  wrap(command: SandboxCommand, policy: SandboxPolicy): WrappedCommand {
    if (this.#unavailableReason !== undefined) throw new SandboxUnavailableError(this.#unavailableReason);
    const profile = renderSeatbeltProfile(deriveSandboxLayout(policy), { hereDocumentDirectories: hereDocumentDirectories(policy) });
    const argv = seatbeltArguments(profile, command.argv);
    argv[0] = this.sandboxExecPath;
    // The profile denies the protected kinds of files at any depth itself (regex rules): nothing to do after the command.
    return { argv, release: async () => {} };
  }

  /** §7.9: `GOCACHE` and the package managers' caches in a temp root, since the caches under home are not writable here (`goBuildCacheEnvironment`, `packageCacheEnvironment`). */
  commandEnvironment(policy: SandboxPolicy): Readonly<Record<string, string>> {
    return { ...goBuildCacheEnvironment(policy), ...packageCacheEnvironment(policy) };
  }
}
