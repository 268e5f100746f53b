const MARKER = Symbol.for('openwork.tools-contract.error');

/**
 * Base of every error this package throws. Identity is a `Symbol.for` marker instead of
 * `instanceof`, so that it survives two copies of the package in one dependency tree.
 */
export class ToolsContractError extends Error {
  private readonly [MARKER] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ToolsContractError';
  }

  /** Whether `error` is any error of this package, from whichever copy of it. */
  static isInstance(error: unknown): error is ToolsContractError {
    return hasMarker(error, MARKER);
  }
}

/** Whether `value` is an object carrying the `Symbol.for` marker `marker`. */
export function hasMarker(value: unknown, marker: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
}
