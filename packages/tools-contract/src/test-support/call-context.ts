import type { ToolCallContext } from '../index.js';

/** A call context for tests: a fresh, not-aborted signal and no policy unless given. */
export function callContext<Policy = undefined>(overrides: Partial<ToolCallContext<Policy>> = {}): ToolCallContext<Policy> {
  return {
    callId: 'call_1',
    signal: new AbortController().signal,
    sandboxPolicy: undefined as Policy,
    ...overrides,
  };
}
