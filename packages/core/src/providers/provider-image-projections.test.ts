import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoredMessage } from '@openwork/session-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LanguageModelRequest } from '../model/language-model.js';
import { IMAGE_ESTIMATED_BYTES, measureConversation } from '../model/measure-conversation.js';
import { toModelMessages } from '../model/to-model-messages.js';
import { createCoreFixture, type CoreFixture } from '../test-support/core-fixture.js';
import { pngFile } from '../test-support/png-file.js';
import { callTool, say, ScriptedModel } from '../test-support/scripted-model.js';
import { projectAnthropicMessagesRequest } from './anthropic-messages-projection.js';
import { projectOpenAIChatRequest } from './openai-chat-projection.js';
import { projectOpenAIResponsesRequest } from './openai-responses-projection.js';

let machine: CoreFixture;
let stored: StoredMessage[];
let asked: LanguageModelRequest;
const png = pngFile(3, 2);
const data = png.toString('base64');
const caption = `image/png 3×2, ${png.length} bytes`;

// One real turn: the model reads a PNG, then a missing image (a failure has no image), then answers.
beforeAll(async () => {
  machine = await createCoreFixture();
  await writeFile(join(machine.workspace, 'shot.png'), png);
  const session = await machine.session();
  const model = new ScriptedModel([
    [callTool('call_png', 'read', { path: 'shot.png' }), callTool('call_gone', 'read', { path: 'gone.png' })],
    [say('A small image.')],
  ]);
  await session.runTurn({ input: 'What is in shot.png?', model });
  stored = await session.messages();
  const second = model.requests[1];
  if (second === undefined) throw new Error('the model was asked twice');
  asked = second;
});

afterAll(async () => {
  await machine.cleanup();
});

describe('image parts reach the model through core', () => {
  it('the stored result and the request the model got carry the image after the text', () => {
    const tool = stored.find((message) => message.role === 'tool' && message.toolCallId === 'call_png');
    expect(tool?.role === 'tool' && tool.result.content).toEqual([
      { type: 'text', text: caption },
      { type: 'image', mimeType: 'image/png', data },
    ]);
    const [read, gone] = asked.messages.filter((message) => message.role === 'tool');
    expect(read).toEqual({ role: 'tool', toolCallId: 'call_png', toolId: 'read', text: caption, images: [{ type: 'image', mimeType: 'image/png', data }], isError: false });
    expect(gone?.role === 'tool' && gone.images).toBeUndefined();
    expect(toModelMessages(stored).filter((message) => message.role === 'tool')[0]).toEqual(read);
  });

  it('an image counts a fixed estimate in the context budget, not its base64 length', () => {
    const messages = toModelMessages(stored);
    const withoutImages = messages.map((message) => (message.role === 'tool' ? { ...message, images: undefined } : message));
    expect(measureConversation(messages).bytes - measureConversation(withoutImages).bytes).toBe(IMAGE_ESTIMATED_BYTES);
  });
});

describe('provider projections of an image result', () => {
  const request = (): LanguageModelRequest => ({ ...asked, messages: toModelMessages(stored) });

  it('Anthropic Messages: a tool_result with a text block and a base64 image block', () => {
    const projection = projectAnthropicMessagesRequest(request());
    const user = projection.messages.find((message) => message.role === 'user' && message.content.some((block) => block.type === 'tool_result'));
    expect(user?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'call_png',
        content: [
          { type: 'text', text: caption },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
        ],
      },
      { type: 'tool_result', tool_use_id: 'call_gone', content: expect.stringMatching(/^gone\.png does not exist/), is_error: true },
    ]);
  });

  it('OpenAI Responses: a function_call_output with input_text and an input_image data URL', () => {
    const projection = projectOpenAIResponsesRequest(request());
    const outputs = projection.input.filter((item) => item.type === 'function_call_output');
    expect(outputs[0]).toEqual({
      type: 'function_call_output',
      call_id: 'call_png',
      output: [
        { type: 'input_text', text: caption },
        { type: 'input_image', image_url: `data:image/png;base64,${data}`, detail: 'auto' },
      ],
    });
    expect(typeof (outputs[1]?.type === 'function_call_output' && outputs[1].output)).toBe('string');
  });

  it('OpenAI Chat Completions: the text plus a note, since tool messages carry text only', () => {
    const projection = projectOpenAIChatRequest(request());
    const tools = projection.messages.filter((message) => message.role === 'tool');
    expect(tools[0]).toEqual({
      role: 'tool',
      tool_call_id: 'call_png',
      content: `${caption}\n[1 image of this result not shown: tool messages of this model API carry text only; the text above describes it.]`,
    });
    expect(JSON.stringify(projection)).not.toContain(data);
  });
});
