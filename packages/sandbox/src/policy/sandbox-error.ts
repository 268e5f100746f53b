const marker = Symbol.for('openwork.sandbox.error');

/**
 * Base class of every error this package throws. Thrown errors are for programmer mistakes and
 * broken infrastructure only; a denied or unresolvable path is a value (`AccessDecision`,
 * `PathResolution`). Identity goes through a registered symbol so that it survives two copies of
 * the package in one tree (house style).
 */
export class SandboxError extends Error {
  private readonly [marker] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SandboxError';
  }

  static isInstance(error: unknown): error is SandboxError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}

/** A policy, grant or option that can never be valid (e.g. a relative cwd, a NUL byte in a root). */
export class SandboxConfigurationError extends SandboxError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SandboxConfigurationError';
  }
}
