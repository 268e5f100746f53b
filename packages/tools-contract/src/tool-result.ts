import type { ToolArtifact } from './tool-artifact.js';
import type { ToolError } from './tool-error.js';
import type { ToolErrorCode } from './tool-error-code.js';
import type { ToolResultImage } from './tool-result-image.js';
import type { ToolResultStatus } from './tool-result-status.js';

/** Model-visible text of a result (§8.1). */
export interface ToolResultText {
  readonly type: 'text';
  readonly text: string;
}

/**
 * A part of a result's model-visible content. The first part is always the one text part; image
 * parts (only in succeeded results) follow it, so a host that shows text only loses no words.
 */
export type ToolResultContent = ToolResultText | ToolResultImage;

/**
 * The one final value of a call (§8.1, §8.3). Plain, frozen, JSON-serialisable data. Build it
 * with `ToolResult.success` / `ToolResult.failure`, which keep the invariants: a failed result's
 * text equals its error message, and the status follows from the error code.
 */
export interface ToolResult {
  readonly status: ToolResultStatus;
  /** `[text, ...images]`: exactly one text part, first (see `ToolResultContent`). */
  readonly content: readonly ToolResultContent[];
  /** For the host and UI only; never sent to the model and not counted against its budget (§8.1). */
  readonly artifacts: readonly ToolArtifact[];
  /** Present exactly when `status` is not `succeeded`. */
  readonly error: ToolError | null;
  /** A fact about the result, not a permission decision (§8.1): the sandbox denied something. */
  readonly sandboxDenied: boolean;
}

/** Optional parts of a result. */
export interface ToolResultExtras {
  /** Image parts after the text; ignored by `failure` (a failure is its message only). */
  readonly images?: readonly ToolResultImage[];
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
    content: Object.freeze([
      Object.freeze({ type: 'text' as const, text }),
      ...(error === null ? (extras?.images ?? []).map((image) => Object.freeze({ type: 'image' as const, mimeType: image.mimeType, data: image.data })) : []),
    ]),
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
    return result.content
      .filter((part): part is ToolResultText => part.type === 'text')
      .map((part) => part.text)
      .join('\n');
  },

  /** The image parts of a result, in order (none for a failure). */
  images(result: ToolResult): readonly ToolResultImage[] {
    return result.content.filter((part): part is ToolResultImage => part.type === 'image');
  },
});
