const USAGE_ERROR: unique symbol = Symbol.for('openwork.cli.usage-error') as never;

/**
 * Bad arguments on the command line (§7 CLI contract): the program prints the one-line message
 * and exits with status 2. Never used for a tool failure — those are `ToolResult` values.
 */
export class UsageError extends Error {
  readonly [USAGE_ERROR] = true;

  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }

  /** True for a `UsageError`, also from another copy of this module. */
  static isInstance(error: unknown): error is UsageError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[USAGE_ERROR] === true;
  }
}
