import { SandboxError } from '../policy/sandbox-error.js';

/** `wrap` on a backend whose self-check failed or that cannot run here (§3.4, acceptance 10d). */
export class SandboxUnavailableError extends SandboxError {
  readonly reason: string;

  constructor(reason: string) {
    super(`sandbox unavailable: ${reason}`);
    this.name = 'SandboxUnavailableError';
    this.reason = reason;
  }
}
