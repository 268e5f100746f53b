import type { CallInspection } from './call-inspection.js';
import type { ToolId } from './tool-id.js';
import type { ToolResult } from './tool-result.js';
import type { ToolRisk } from './tool-risk.js';

/**
 * A call checked and inspected before execution (§6.1): the host decides from `inspection`
 * whether to deny it (`protectedTarget`), ask the user (`escalation`, `danger`) or run it.
 */
export interface PreparedCall {
  readonly toolId: ToolId;
  readonly risk: ToolRisk;
  /** The validated input (defaults applied), as `execute` would receive it. */
  readonly input: unknown;
  readonly inspection: CallInspection;
}

/**
 * `prepare`'s answer: the prepared call, or the result to give the model instead
 * (`tool_not_found`, `invalid_arguments`, or `execution_failed` when `inspect` threw).
 */
export type PrepareOutcome =
  | { readonly ok: true; readonly call: PreparedCall }
  | { readonly ok: false; readonly result: ToolResult };
