/** How a call ended (§8.1). */
export type ToolResultStatus = 'succeeded' | 'failed' | 'denied' | 'cancelled' | 'outcome_unknown';

/** Every `ToolResultStatus`, in the order of §8.1. */
export const TOOL_RESULT_STATUSES: readonly ToolResultStatus[] = Object.freeze([
  'succeeded',
  'failed',
  'denied',
  'cancelled',
  'outcome_unknown',
]);
