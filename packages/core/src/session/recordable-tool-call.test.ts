import { checkRecordId } from '@openwork/session-store';
import { describe, expect, it } from 'vitest';
import { recordableToolCall } from './recordable-tool-call.js';

describe('recordableToolCall', () => {
  it('keeps a usable new id and the arguments as JSON', () => {
    expect(recordableToolCall({ id: 'call_1', toolId: 'read', input: '{"path":"a.txt"}' }, new Set())).toEqual({ id: 'call_1', toolId: 'read', input: { path: 'a.txt' } });
    expect(recordableToolCall({ id: 'call_2', toolId: 'read', input: { path: 'b', skip: undefined } }, new Set()).input).toEqual({ path: 'b' });
    expect(recordableToolCall({ id: 'call_3', toolId: 'read', input: undefined }, new Set()).input).toEqual({});
  });

  it('keeps arguments that are not a JSON object as the text the model sent', () => {
    expect(recordableToolCall({ id: 'a', toolId: 'read', input: '{"path":' }, new Set()).input).toBe('{"path":');
    expect(recordableToolCall({ id: 'b', toolId: 'read', input: '[1,2]' }, new Set()).input).toBe('[1,2]');
  });

  it('replaces a taken, empty or unstorable id with a fresh one', () => {
    for (const id of ['taken', '', 'x'.repeat(201), 'bad\nid']) {
      const call = recordableToolCall({ id, toolId: 'read', input: '{}' }, new Set(['taken']));
      expect(call.id).toMatch(/^call_[0-9a-f-]{36}$/);
    }
  });

  it('keeps a storable form of any tool name, so the call can be answered with tool_not_found', () => {
    for (const toolId of ['', 'a\u0000b', '\ud800x', '🙂'.repeat(300), 'x'.repeat(500)]) {
      const recorded = recordableToolCall({ id: 'c', toolId, input: '{}' }, new Set()).toolId;
      expect(() => checkRecordId(recorded, 'toolId')).not.toThrow();
    }
    expect(recordableToolCall({ id: 'c', toolId: 'a\u0000b', input: '{}' }, new Set()).toolId).toBe('a?b');
  });
});
