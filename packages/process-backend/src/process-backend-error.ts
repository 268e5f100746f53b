const marker = Symbol.for('openwork.process-backend.error');

/**
 * Base class of every error this package throws. Thrown errors are for programmer mistakes only
 * (an empty argv, a negative timeout); everything a running process can do — fail to start,
 * time out, be cancelled, survive a kill — is a `ProcessOutcome` value. Identity goes through a
 * registered symbol so that it survives two copies of the package in one tree (house style).
 */
export class ProcessBackendError extends Error {
  private readonly [marker] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProcessBackendError';
  }

  static isInstance(error: unknown): error is ProcessBackendError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}

/** `spawn` was called with arguments that can never work (empty argv, a timeout that is not a positive integer). */
export class InvalidSpawnRequestError extends ProcessBackendError {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSpawnRequestError';
  }
}
