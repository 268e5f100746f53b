import type { StoredToolMessage } from '@openwork/session-store';
import type { ToolProgressListener, ToolResult } from '@openwork/tools-contract';
import type { Approver } from '../call/approval.js';

/** How `Session.callTool` runs one call outside a model turn. */
export interface ToolCallOptions {
  /** The call's id (unique in the session; names its spill file and its file change). Default a new `call_<uuid>`. */
  readonly callId?: string;
  /** Asks the user when the call needs approval; default the runtime's. Without one, such a call is denied. */
  readonly approver?: Approver;
  /** Cancels the call (§5). */
  readonly signal?: AbortSignal;
  /** Epoch milliseconds the call should be over by; bash shortens its timeout to it (§5). */
  readonly deadline?: number;
  /** This call's progress, through its own bounded queue of 64 (§8.3); never after the result. */
  readonly onProgress?: ToolProgressListener;
  /** Store the call and its result in the session (default `true`), so its file changes can be undone. */
  readonly record?: boolean;
}

/** What `Session.callTool` resolves to. */
export interface ToolCallOutcome {
  readonly callId: string;
  /** The one final result (§8.3), artifacts included. */
  readonly result: ToolResult;
  /** The stored tool message, or `null` with `record: false`. */
  readonly message: StoredToolMessage | null;
}
