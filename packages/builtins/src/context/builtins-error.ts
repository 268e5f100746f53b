const MARKER = Symbol.for('openwork.builtins.error');

/**
 * Thrown only for programmer mistakes and broken infrastructure (a relative working directory, a
 * missing home directory). Everything a model can cause is a `ToolResult` value instead (§8.1).
 * Identity goes through a registered symbol so that `isInstance` works across two copies of the
 * package in one tree.
 */
export class BuiltinsError extends Error {
  private readonly [MARKER] = true;

  constructor(message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.name = 'BuiltinsError';
  }

  static isInstance(error: unknown): error is BuiltinsError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[MARKER] === true;
  }
}
