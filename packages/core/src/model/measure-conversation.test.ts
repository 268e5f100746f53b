import type { StoredMessage } from '@openwork/session-store';
import { ToolResult } from '@openwork/tools-contract';
import { describe, expect, it } from 'vitest';
import { measureConversation } from './measure-conversation.js';
import { toModelMessages } from './to-model-messages.js';

function conversation(artifacts: readonly { kind: string; [key: string]: unknown }[], resultText = 'Edited a.txt:1 (+1 -1)'): StoredMessage[] {
  const base = { sessionId: 's', createdAt: '2025-01-01T00:00:00.000Z' };
  return [
    { ...base, id: '1', sequence: 1, role: 'user', text: 'change a.txt' },
    { ...base, id: '2', sequence: 2, role: 'assistant', text: '', toolCalls: [{ id: 'call_1', toolId: 'edit', input: { filePath: 'a.txt', oldString: 'a', newString: 'b' } }] },
    { ...base, id: '3', sequence: 3, role: 'tool', toolCallId: 'call_1', toolId: 'edit', result: ToolResult.success(resultText, { artifacts }) },
    { ...base, id: '4', sequence: 4, role: 'assistant', text: 'Done.', toolCalls: [] },
  ];
}

describe('the conversation size (§8.1)', () => {
  it('tool_result_artifacts_do_not_count_toward_the_conversation', () => {
    const plain = measureConversation(toModelMessages(conversation([])));
    const huge = 'x'.repeat(2 * 1024 * 1024);
    const withArtifacts = measureConversation(
      toModelMessages(conversation([{ kind: 'file_change', change: { changeId: 'call_1', path: 'a.txt', beforeContent: huge, afterContent: huge, undone: false } }, { kind: 'note', text: huge }])),
    );
    expect(withArtifacts).toEqual(plain);
    // The measure is of what is sent: the result text does count.
    const longer = measureConversation(toModelMessages(conversation([], `Edited a.txt:1 (+1 -1)${'!'.repeat(100)}`)));
    expect(longer.bytes).toBe(plain.bytes + 100);
    expect(plain.estimatedTokens).toBe(Math.ceil(plain.bytes / 4));
    expect(plain.bytes).toBe(
      Buffer.byteLength(
        ['user', 'change a.txt', 'assistant', '', 'call_1', 'edit', '{"filePath":"a.txt","oldString":"a","newString":"b"}', 'tool', 'call_1', 'edit', 'Edited a.txt:1 (+1 -1)', 'assistant', 'Done.'].join(''),
      ),
    );
  });

  it('the model view drops artifacts, metadata and ids of stored messages', () => {
    const messages = conversation([{ kind: 'file_change', change: { changeId: 'call_1' } }]);
    expect(toModelMessages(messages)).toEqual([
      { role: 'user', text: 'change a.txt' },
      { role: 'assistant', text: '', toolCalls: [{ id: 'call_1', toolId: 'edit', input: { filePath: 'a.txt', oldString: 'a', newString: 'b' } }] },
      { role: 'tool', toolCallId: 'call_1', toolId: 'edit', text: 'Edited a.txt:1 (+1 -1)', isError: false },
      { role: 'assistant', text: 'Done.', toolCalls: [] },
    ]);
  });
});
