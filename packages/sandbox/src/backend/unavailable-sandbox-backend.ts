import type { SandboxPolicy } from '../policy/sandbox-policy.js';
import type { SandboxAvailability, SandboxBackend, SandboxCommand, WrappedCommand } from './sandbox-backend.js';
import { SandboxUnavailableError } from './sandbox-unavailable-error.js';

/**
 * The backend when no kernel sandbox works here (acceptance 10d/10f): reports the reason and
 * refuses to wrap, so bash returns `sandbox_unavailable` and never runs unsandboxed.
 */
export class UnavailableSandboxBackend implements SandboxBackend {
  readonly kind = 'unavailable' as const;
  readonly reason: string;

  constructor(reason: string) {
    this.reason = reason;
  }

  async selfCheck(): Promise<SandboxAvailability> {
    return { available: false, reason: this.reason };
  }

  wrap(_command: SandboxCommand, _policy: SandboxPolicy): WrappedCommand {
    throw new SandboxUnavailableError(this.reason);
  }
}
