import type { ToolErrorCode } from './tool-error-code.js';

/** Why a call did not succeed (§8.1). The message is also the model-visible text of the result. */
export interface ToolError {
  readonly code: ToolErrorCode;
  readonly message: string;
  /** Whether repeating the same call unchanged may succeed (the failure may be transient). */
  readonly retryable: boolean;
}
