import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoredMessage } from '@openwork/session-store';
import { ToolResult } from '@openwork/tools-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LanguageModelRequest } from '../model/language-model.js';
import { toModelMessages } from '../model/to-model-messages.js';
import { createCoreFixture, type CoreFixture } from '../test-support/core-fixture.js';
import { callTool, say, ScriptedModel } from '../test-support/scripted-model.js';
import { projectAnthropicMessagesRequest } from './anthropic-messages-projection.js';
import { projectOpenAIChatRequest } from './openai-chat-projection.js';
import { projectOpenAIResponsesRequest } from './openai-responses-projection.js';

let machine: CoreFixture;
let stored: StoredMessage[];
let request: LanguageModelRequest;
let editText: string;
let notFoundText: string;

// One real conversation: a read, an edit (with its file_change artifact), an unknown tool, an answer.
beforeAll(async () => {
  machine = await createCoreFixture();
  await writeFile(join(machine.workspace, 'greeting.txt'), 'hello\nworld\n');
  const session = await machine.session();
  const model = new ScriptedModel([
    [say('Reading.'), callTool('call_read', 'read', { path: 'greeting.txt' })],
    [callTool('call_edit', 'edit', { filePath: 'greeting.txt', oldString: 'world', newString: 'OpenWork' }), callTool('call_typo', 'raed', '{"path":')],
    [say('Done.')],
  ]);
  await session.runTurn({ input: 'Greet OpenWork.', model, instructions: 'You are terse.' });
  stored = await session.messages();
  const last = model.requests[2];
  if (last === undefined) throw new Error('the model was asked three times');
  request = { ...last, messages: toModelMessages(stored) };
  const edit = stored.find((message) => message.role === 'tool' && message.toolCallId === 'call_edit');
  const typo = stored.find((message) => message.role === 'tool' && message.toolCallId === 'call_typo');
  if (edit?.role !== 'tool' || typo?.role !== 'tool') throw new Error('both calls were answered');
  expect(edit.result.artifacts).toHaveLength(1);
  editText = ToolResult.text(edit.result);
  notFoundText = ToolResult.text(typo.result);
});
afterAll(async () => {
  await machine.cleanup();
});

/** Every piece of the stored artifact that could leak: its kind, contents, hashes and hunks. */
function expectNoArtifact(projection: unknown): void {
  const json = JSON.stringify(projection);
  for (const leak of ['file_change', 'beforeContent', 'afterContent', 'beforeHash', 'hunks', 'realPath', 'hello\\nworld\\n', 'undone']) {
    expect(json).not.toContain(leak);
  }
  expect(json).toContain(JSON.stringify(editText).slice(1, -1));
}

describe('OpenAI Chat Completions projection', () => {
  it('tool_result_artifacts_are_not_sent_to_the_provider', () => {
    const projection = projectOpenAIChatRequest(request);
    expectNoArtifact(projection);
    expect(projection.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Greet OpenWork.' },
      { role: 'assistant', content: 'Reading.', tool_calls: [{ id: 'call_read', type: 'function', function: { name: 'read', arguments: '{"path":"greeting.txt"}' } }] },
      { role: 'tool', tool_call_id: 'call_read', content: '1\thello\n2\tworld' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_edit', type: 'function', function: { name: 'edit', arguments: '{"filePath":"greeting.txt","oldString":"world","newString":"OpenWork"}' } },
          { id: 'call_typo', type: 'function', function: { name: 'raed', arguments: '{"path":' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_edit', content: editText },
      { role: 'tool', tool_call_id: 'call_typo', content: notFoundText },
      { role: 'assistant', content: 'Done.' },
    ]);
    expect(projection.tools?.map((tool) => tool.function.name)).toEqual(request.tools.map((tool) => tool.id));
    expect(projection.tools?.[0]).toEqual({ type: 'function', function: { name: 'read', description: request.tools[0]?.description, parameters: request.tools[0]?.inputSchema } });
  });
});

describe('OpenAI Responses projection', () => {
  it('tool_result_artifacts_are_not_sent_to_the_provider', () => {
    const projection = projectOpenAIResponsesRequest(request);
    expectNoArtifact(projection);
    expect(projection.instructions).toBe('You are terse.');
    expect(projection.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Greet OpenWork.' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Reading.' }] },
      { type: 'function_call', call_id: 'call_read', name: 'read', arguments: '{"path":"greeting.txt"}' },
      { type: 'function_call_output', call_id: 'call_read', output: '1\thello\n2\tworld' },
      { type: 'function_call', call_id: 'call_edit', name: 'edit', arguments: '{"filePath":"greeting.txt","oldString":"world","newString":"OpenWork"}' },
      { type: 'function_call', call_id: 'call_typo', name: 'raed', arguments: '{"path":' },
      { type: 'function_call_output', call_id: 'call_edit', output: editText },
      { type: 'function_call_output', call_id: 'call_typo', output: notFoundText },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] },
    ]);
    expect(projection.tools?.[0]).toEqual({ type: 'function', name: 'read', description: request.tools[0]?.description, parameters: request.tools[0]?.inputSchema, strict: false });
  });
});

describe('Anthropic Messages projection', () => {
  it('tool_result_artifacts_are_not_sent_to_the_provider', () => {
    const projection = projectAnthropicMessagesRequest(request);
    expectNoArtifact(projection);
    expect(projection.system).toBe('You are terse.');
    expect(projection.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Greet OpenWork.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'call_read', name: 'read', input: { path: 'greeting.txt' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_read', content: '1\thello\n2\tworld' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'call_edit', name: 'edit', input: { filePath: 'greeting.txt', oldString: 'world', newString: 'OpenWork' } },
          // Arguments that were not JSON are sent as an empty object; the model reads its error next.
          { type: 'tool_use', id: 'call_typo', name: 'raed', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_edit', content: editText },
          { type: 'tool_result', tool_use_id: 'call_typo', content: notFoundText, is_error: true },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ]);
    expect(projection.tools?.[0]).toEqual({ name: 'read', description: request.tools[0]?.description, input_schema: request.tools[0]?.inputSchema });
  });

  it('alternates roles: user text after tool results joins the same user message', () => {
    const projection = projectAnthropicMessagesRequest({
      sessionId: 's',
      messages: [
        { role: 'assistant', text: '', toolCalls: [{ id: 'a', toolId: 'list', input: {} }] },
        { role: 'tool', toolCallId: 'a', toolId: 'list', text: 'x', isError: false },
        { role: 'user', text: 'and now?' },
      ],
      tools: [],
    });
    expect(projection).toEqual({
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'list', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'x' }, { type: 'text', text: 'and now?' }] },
      ],
    });
  });
});
