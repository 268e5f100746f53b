import type { ToolProgressListener } from './tool-progress.js';

/**
 * What the host gives for one call (§1, §5). It carries no session or turn types of the host:
 * the session context is bound once at `finalize`.
 *
 * `Policy` is the per-call sandbox policy the host stamps (core: `SandboxPolicy` from
 * `@openwork/sandbox`); the contract passes it through untouched.
 */
export interface ToolCallContext<Policy = unknown> {
  /** The model's tool-call ID; also names the spill file of an oversized result (§8.2). */
  readonly callId: string;
  /** Cancels this call; derive it from the turn's signal (`AbortSignal.any`, §5). */
  readonly signal: AbortSignal;
  /** Epoch milliseconds after which the host wants the call over; tools shorten their own timeouts (§5). */
  readonly deadline?: number;
  /** Where progress goes; optional, and never able to change the result (§8.3). */
  readonly progress?: ToolProgressListener;
  /** The policy of this one call: the session mode plus grants approved for it (§5). */
  readonly sandboxPolicy: Policy;
}
