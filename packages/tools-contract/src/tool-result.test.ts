import { describe, expect, it } from 'vitest';
import {
  CallInspection,
  TOOL_ERROR_CODES,
  TOOL_RESULT_STATUSES,
  ToolCallContextError,
  ToolExecutionError,
  ToolResult,
  ToolsContractError,
  ToolsetConfigurationError,
} from './index.js';

describe('ToolResult (§8.1)', () => {
  it('a success carries text, artifacts and the sandbox fact, and no error', () => {
    const result = ToolResult.success('[exit 1; duration 3 ms]', { artifacts: [{ kind: 'file_change', path: 'a' }], sandboxDenied: true });
    expect(result).toEqual({
      status: 'succeeded',
      content: [{ type: 'text', text: '[exit 1; duration 3 ms]' }],
      artifacts: [{ kind: 'file_change', path: 'a' }],
      error: null,
      sandboxDenied: true,
    });
    expect(Object.isFrozen(result)).toBe(true);
    expect(Object.isFrozen(result.content)).toBe(true);
    expect(Object.isFrozen(result.artifacts)).toBe(true);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('a failure\'s text is its error message and its status follows from the code', () => {
    const expected: Record<string, string> = {
      tool_not_found: 'failed',
      invalid_arguments: 'failed',
      permission_denied: 'denied',
      cancelled: 'cancelled',
      timeout: 'failed',
      execution_failed: 'failed',
      outcome_unknown: 'outcome_unknown',
      sandbox_unavailable: 'failed',
    };
    expect(Object.keys(expected)).toEqual([...TOOL_ERROR_CODES]);
    for (const code of TOOL_ERROR_CODES) {
      const result = ToolResult.failure({ code, message: `message for ${code}` });
      expect(result.status).toBe(expected[code]);
      expect(ToolResult.statusOf(code)).toBe(expected[code]);
      expect(TOOL_RESULT_STATUSES).toContain(result.status);
      expect(ToolResult.text(result)).toBe(`message for ${code}`);
      expect(result.error).toEqual({ code, message: `message for ${code}`, retryable: code === 'timeout' });
      expect(result.sandboxDenied).toBe(false);
    }
    expect(ToolResult.failure({ code: 'execution_failed', message: 'pipe broke', retryable: true }).error?.retryable).toBe(true);
  });

  it('the text of a result joins its text parts with newlines', () => {
    const result = { ...ToolResult.success('a'), content: [{ type: 'text' as const, text: 'a' }, { type: 'text' as const, text: 'b' }] };
    expect(ToolResult.text(result)).toBe('a\nb');
  });
});

describe('CallInspection (§6.1)', () => {
  it('has one constructor per kind, with optional extra facts', () => {
    expect(CallInspection.readOnly()).toEqual({ kind: 'read_only' });
    expect(CallInspection.writes('src/a.ts')).toEqual({ kind: 'writes', target: 'src/a.ts' });
    expect(CallInspection.runs('ls', { danger: { reason: 'none' } })).toEqual({ kind: 'runs', command: 'ls', danger: { reason: 'none' } });
    // Facts cannot change the kind.
    expect(CallInspection.writes('a', { kind: 'read_only', target: 'b' } as never)).toEqual({ kind: 'writes', target: 'a' });
    expect(Object.isFrozen(CallInspection.writes('a'))).toBe(true);
  });
});

describe('errors', () => {
  it('are recognised by marker, also across copies of the package', () => {
    const execution = new ToolExecutionError('timeout', 'timed out');
    expect(execution.retryable).toBe(true);
    expect(execution.sandboxDenied).toBe(false);
    expect(execution.artifacts).toEqual([]);
    expect(ToolExecutionError.isInstance(execution)).toBe(true);
    expect(ToolsContractError.isInstance(execution)).toBe(true);
    expect(ToolsetConfigurationError.isInstance(execution)).toBe(false);
    expect(ToolCallContextError.isInstance(new ToolCallContextError('x'))).toBe(true);
    expect(execution.name).toBe('ToolExecutionError');

    // What a second copy of the package would create: a different class with the same markers.
    const foreign = Object.assign(new Error('from another copy'), {
      [Symbol.for('openwork.tools-contract.error')]: true,
      [Symbol.for('openwork.tools-contract.error.ToolExecutionError')]: true,
    });
    expect(ToolExecutionError.isInstance(foreign)).toBe(true);
    expect(ToolsContractError.isInstance(new Error('plain'))).toBe(false);
    expect(ToolsContractError.isInstance(null)).toBe(false);
    expect(ToolsContractError.isInstance('ToolExecutionError')).toBe(false);
  });
});
