/** The error codes of §8.1. */
export type ToolErrorCode =
  | 'tool_not_found'
  | 'invalid_arguments'
  | 'permission_denied'
  | 'cancelled'
  | 'timeout'
  | 'execution_failed'
  | 'outcome_unknown'
  | 'sandbox_unavailable';

/** Every `ToolErrorCode`, in the order of §8.1. */
export const TOOL_ERROR_CODES: readonly ToolErrorCode[] = Object.freeze([
  'tool_not_found',
  'invalid_arguments',
  'permission_denied',
  'cancelled',
  'timeout',
  'execution_failed',
  'outcome_unknown',
  'sandbox_unavailable',
]);
