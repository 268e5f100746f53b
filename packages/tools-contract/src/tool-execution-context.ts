import type { ToolProgress } from './tool-progress.js';

/**
 * The call context as a tool's `execute` sees it: the host's `ToolCallContext` with the raw
 * listener replaced by `reportProgress`, which never throws, never waits and stops delivering once
 * the call has its result (§8.3).
 */
export interface ToolExecutionContext<Policy = unknown> {
  readonly callId: string;
  readonly signal: AbortSignal;
  readonly deadline: number | undefined;
  readonly sandboxPolicy: Policy;
  /** Best effort: an update may be dropped, and dropping never changes the result. */
  reportProgress(progress: ToolProgress): void;
}
