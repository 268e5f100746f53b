import { SandboxError } from '../policy/sandbox-error.js';

const marker = Symbol.for('openwork.sandbox.error.SandboxUnavailableError');

/** `wrap` on a backend whose self-check failed or that cannot run here (§3.4, acceptance 10d). */
export class SandboxUnavailableError extends SandboxError {
  private readonly [marker] = true;
  readonly reason: string;

  constructor(reason: string) {
    super(`sandbox unavailable: ${reason}`);
    this.name = 'SandboxUnavailableError';
    this.reason = reason;
  }

  /** This error in particular (not any `SandboxError`), across two copies of the package in one tree. */
  static override isInstance(error: unknown): error is SandboxUnavailableError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}
