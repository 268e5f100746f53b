import { execFile } from 'node:child_process';
import { SandboxUnavailableError } from '../backend/sandbox-unavailable-error.js';
import type { SandboxAvailability, SandboxBackend, SandboxCommand, WrappedCommand } from '../backend/sandbox-backend.js';
import { deriveSandboxLayout } from '../policy/derive-sandbox-layout.js';
import type { SandboxPolicy } from '../policy/sandbox-policy.js';
import { renderSeatbeltProfile, seatbeltArguments } from './seatbelt-profile.js';

export interface SeatbeltBackendOptions {
  /** Default `process.platform`; a test seam to prove the off-macOS answer. */
  readonly platform?: NodeJS.Platform;
  /** Default `/usr/bin/sandbox-exec`. */
  readonly sandboxExecPath?: string;
}

const selfCheckProfile = '(version 1)\n(deny default)\n(allow process-exec)\n(allow process-fork)\n(allow sysctl-read)\n(allow file-read* (subpath (param "ROOT")))\n';

/**
 * macOS Seatbelt (architecture §3.4): wraps argv in `sandbox-exec` with the profile derived from the
 * call's policy. Never spawns the command itself (spec §4); `selfCheck` runs one trivial command.
 */
export class SeatbeltBackend implements SandboxBackend {
  readonly kind = 'seatbelt' as const;
  private readonly platform: NodeJS.Platform;
  private readonly sandboxExecPath: string;

  constructor(options: SeatbeltBackendOptions = {}) {
    this.platform = options.platform ?? process.platform;
    this.sandboxExecPath = options.sandboxExecPath ?? '/usr/bin/sandbox-exec';
  }

  async selfCheck(): Promise<SandboxAvailability> {
    if (this.platform !== 'darwin') {
      return { available: false, reason: `Seatbelt (sandbox-exec) exists only on macOS; this is ${this.platform}` };
    }
    return new Promise((resolve) => {
      execFile(
        this.sandboxExecPath,
        ['-p', selfCheckProfile, '-D', 'ROOT=/', '--', '/usr/bin/true'],
        { timeout: 10_000 },
        (error, _stdout, stderr) => {
          if (error === null) resolve({ available: true });
          else resolve({ available: false, reason: `${this.sandboxExecPath} failed its self-check: ${String(stderr).trim() || error.message}` });
        },
      );
    });
  }

  wrap(command: SandboxCommand, policy: SandboxPolicy): WrappedCommand {
    if (this.platform !== 'darwin') {
      throw new SandboxUnavailableError(`Seatbelt (sandbox-exec) exists only on macOS; this is ${this.platform}`);
    }
    const profile = renderSeatbeltProfile(deriveSandboxLayout(policy));
    const argv = seatbeltArguments(profile, command.argv);
    if (this.sandboxExecPath !== '/usr/bin/sandbox-exec') argv[0] = this.sandboxExecPath;
    return { argv, release: async () => {} };
  }
}
