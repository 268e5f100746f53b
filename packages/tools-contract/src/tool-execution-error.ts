import type { ToolArtifact } from './tool-artifact.js';
import type { ToolErrorCode } from './tool-error-code.js';
import { hasMarker, ToolsContractError } from './tools-contract-error.js';

const MARKER = Symbol.for('openwork.tools-contract.error.ToolExecutionError');

/** Optional parts of a `ToolExecutionError`. */
export interface ToolExecutionErrorOptions {
  /** Defaults to `true` for `timeout` and `false` otherwise. */
  readonly retryable?: boolean;
  /** §6.2/§7.9: the sandbox or fence denied something the model may ask to widen. */
  readonly sandboxDenied?: boolean;
  /** Artifacts that still belong to the failed call. */
  readonly artifacts?: readonly ToolArtifact[];
  readonly cause?: unknown;
}

/**
 * How a tool's `execute` reports an expected failure (§2): return it or throw it; the toolset
 * maps it to a `ToolResult` whose text is `message`. The message is what the model reads, so say
 * what went wrong and what to do next.
 */
export class ToolExecutionError extends ToolsContractError {
  private readonly [MARKER] = true;
  readonly code: ToolErrorCode;
  readonly retryable: boolean;
  readonly sandboxDenied: boolean;
  readonly artifacts: readonly ToolArtifact[];

  constructor(code: ToolErrorCode, message: string, options: ToolExecutionErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolExecutionError';
    this.code = code;
    this.retryable = options.retryable ?? code === 'timeout';
    this.sandboxDenied = options.sandboxDenied ?? false;
    this.artifacts = Object.freeze([...(options.artifacts ?? [])]);
  }

  static override isInstance(error: unknown): error is ToolExecutionError {
    return hasMarker(error, MARKER);
  }
}
