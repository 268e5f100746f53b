import type { ToolArtifact } from './tool-artifact.js';
import type { ToolError } from './tool-error.js';
import type { ToolErrorCode } from './tool-error-code.js';
import type { ToolResultStatus } from './tool-result-status.js';

/** Model-visible content of a result: text only (§8.1). */
export interface ToolResultText {
  readonly type: 'text';
  readonly text: string;
}

/**
 * The one final value of a call (§8.1, §8.3). Plain, frozen, JSON-serialisable data. Build it
 * with `ToolResult.success` / `ToolResult.failure`, which keep the invariants: a failed result's
 * text equals its error message, and the status follows from the error code.
 */
export interface ToolResult {
  readonly status: ToolResultStatus;
  readonly content: readonly ToolResultText[];
  /** For the host and UI only; never sent to the model and not counted against its budget (§8.1). */
  readonly artifacts: readonly ToolArtifact[];
  /** Present exactly when `status` is not `succeeded`. */
  readonly error: ToolError | null;
  /** A fact about the result, not a permission decision (§8.1): the sandbox denied something. */
  readonly sandboxDenied: boolean;
}

/** Optional parts of a result. */
export interface ToolResultExtras {
  readonly artifacts?: readonly ToolArtifact[];
  readonly sandboxDenied?: boolean;
}

/** The error half of `ToolResult.failure`: `retryable` defaults as for `ToolExecutionError`. */
export interface ToolFailure {
  readonly code: ToolErrorCode;
  readonly message: string;
  readonly retryable?: boolean;
}

/**
 * The status a failure with `code` ends in. `permission_denied` is `denied`, `cancelled` and
 * `outcome_unknown` keep their own status, every other code is `failed`.
 */
function statusOf(code: ToolErrorCode): ToolResultStatus {
  switch (code) {
    case 'permission_denied':
      return 'denied';
    case 'cancelled':
      return 'cancelled';
    case 'outcome_unknown':
      return 'outcome_unknown';
    default:
      return 'failed';
  }
}

function freezeResult(
  status: ToolResultStatus,
  text: string,
  error: ToolError | null,
  extras: ToolResultExtras | undefined,
): ToolResult {
  return Object.freeze({
    status,
    content: Object.freeze([Object.freeze({ type: 'text' as const, text })]),
    artifacts: Object.freeze([...(extras?.artifacts ?? [])]),
    error,
    sandboxDenied: extras?.sandboxDenied ?? false,
  });
}

/** Constructors and readers for `ToolResult`. */
export const ToolResult = Object.freeze({
  /** A succeeded result with `text` as its model-visible content. */
  success(text: string, extras?: ToolResultExtras): ToolResult {
    return freezeResult('succeeded', text, null, extras);
  },

  /** A result that did not succeed; its text is the error message (§8.1). */
  failure(failure: ToolFailure, extras?: ToolResultExtras): ToolResult {
    const error: ToolError = Object.freeze({
      code: failure.code,
      message: failure.message,
      retryable: failure.retryable ?? failure.code === 'timeout',
    });
    return freezeResult(statusOf(failure.code), failure.message, error, extras);
  },

  /** The status a failure with `code` ends in (see `ToolResult.failure`). */
  statusOf,

  /** The model-visible text of a result: its text parts joined by newlines. */
  text(result: ToolResult): string {
    return result.content.map((part) => part.text).join('\n');
  },
});
