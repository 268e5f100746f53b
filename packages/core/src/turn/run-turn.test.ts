import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { hasCoreErrorCode } from '../errors/core-error.js';
import type { LanguageModel } from '../model/language-model.js';
import { createCoreFixture, recordUpdates, type CoreFixture } from '../test-support/core-fixture.js';
import { callTool, say, ScriptedModel } from '../test-support/scripted-model.js';
import type { SessionUpdate, ToolCallFinishedUpdate } from '../updates/session-update.js';

const fixtures: CoreFixture[] = [];
async function fixture(): Promise<CoreFixture> {
  const created = await createCoreFixture();
  fixtures.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((entry) => entry.cleanup()));
});

function finished(updates: readonly SessionUpdate[]): ToolCallFinishedUpdate[] {
  return updates.filter((update): update is ToolCallFinishedUpdate => update.type === 'tool_call_finished');
}

describe('turns (§5, architecture §4)', () => {
  it('unknown_tool_becomes_a_result_and_the_model_continues', async () => {
    const machine = await fixture();
    const session = await machine.session();
    const model = new ScriptedModel([[say('Let me try.'), callTool('call_1', 'delete_everything', { really: true })], [say('That tool does not exist; done.')]]);
    const outcome = await session.runTurn({ input: 'clean up', model });

    expect(outcome.status).toBe('completed');
    expect(outcome.text).toBe('That tool does not exist; done.');
    expect(outcome.steps).toBe(2);
    expect(outcome.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const tool = outcome.messages[2];
    if (tool?.role !== 'tool') throw new Error('the third message is the tool result');
    expect(tool.result.error?.code).toBe('tool_not_found');
    expect(ToolResult.text(tool.result)).toMatch(/^Tool "delete_everything" is not available in this toolset\. Available tools: read, write, edit, .*conversation_history, update_plan\. Call one of those instead\.$/);
    // The model got the result and went on: its second request ends with that failed result.
    expect(model.requests[1]?.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'call_1', toolId: 'delete_everything', text: ToolResult.text(tool.result), isError: true });
    expect(await session.messages()).toEqual(outcome.messages);
  });

  it('tool_result_artifacts_are_persisted_in_messages_and_forwarded_live', async () => {
    const machine = await fixture();
    await writeFile(join(machine.workspace, 'greeting.txt'), 'hello\nworld\n');
    const session = await machine.session();
    const updates = recordUpdates(session);
    const model = new ScriptedModel([
      [callTool('call_read', 'read', { path: 'greeting.txt' })],
      [callTool('call_edit', 'edit', { filePath: 'greeting.txt', oldString: 'world', newString: 'OpenWork' })],
      [say('Edited.')],
    ]);
    const outcome = await session.runTurn({ input: 'greet OpenWork', model });
    expect(outcome.status).toBe('completed');
    expect(await readFile(join(machine.workspace, 'greeting.txt'), 'utf8')).toBe('hello\nOpenWork\n');

    // Live: tool_call_finished of the edit carries the artifact.
    const live = finished(updates).find((update) => update.callId === 'call_edit');
    expect(live?.result.artifacts).toHaveLength(1);
    const artifact = live?.result.artifacts[0] as { kind: string; change: Record<string, unknown> };
    expect(artifact.kind).toBe('file_change');
    expect(artifact.change).toMatchObject({ changeId: 'call_edit', path: 'greeting.txt', kind: 'modified', additions: 1, deletions: 1, beforeContent: 'hello\nworld\n', afterContent: 'hello\nOpenWork\n', undone: false });
    // Persisted: the stored tool message holds the same artifact, and the update carries that message.
    const stored = (await machine.store.loadMessages(session.id)).find((message) => message.role === 'tool' && message.toolCallId === 'call_edit');
    expect(stored?.role === 'tool' && stored.result.artifacts).toStrictEqual(live?.result.artifacts);
    expect(live?.message).toStrictEqual(stored);
    expect((await session.fileChanges()).map((change) => [change.changeId, change.path, change.undone])).toEqual([['call_edit', 'greeting.txt', false]]);
    // …and never sent to the model.
    const sent = JSON.stringify(model.requests[2]);
    expect(sent).toContain('Edited greeting.txt:2 (+1 -1)');
    expect(sent).not.toContain('file_change');
    expect(sent).not.toContain('beforeContent');
  });

  it('streams text as assistant_text updates and stores the whole answer', async () => {
    const machine = await fixture();
    const session = await machine.session();
    const updates = recordUpdates(session);
    const outcome = await session.runTurn({ input: 'hi', model: new ScriptedModel([[say('Hel'), say('lo'), say(' there'), { type: 'finish', metadata: { outputTokens: 3 } }]]) });
    expect(updates.map((update) => update.type)).toEqual(['turn_started', 'assistant_text', 'assistant_text', 'assistant_text', 'turn_finished']);
    expect(updates.flatMap((update) => (update.type === 'assistant_text' ? [update.text] : [])).join('')).toBe('Hello there');
    const assistant = outcome.messages[1];
    expect(assistant?.role === 'assistant' && [assistant.text, assistant.metadata]).toEqual(['Hello there', { outputTokens: 3 }]);
    expect(updates.at(-1)).toEqual({ type: 'turn_finished', sessionId: session.id, turnId: outcome.turnId, status: 'completed' });
  });

  it('runs the calls of one answer in order, one at a time, and gives reused or missing ids fresh ones', async () => {
    const machine = await fixture();
    const session = await machine.session();
    const model = new ScriptedModel([
      [callTool('call_0', 'write', { path: 'a.txt', content: 'first\n' }), callTool('call_0', 'write', { path: 'b.txt', content: 'second\n' }), callTool('', 'list', {})],
      [callTool('call_0', 'read', { path: 'a.txt' })],
      [say('ok')],
    ]);
    const updates = recordUpdates(session);
    const outcome = await session.runTurn({ input: 'write two files', model });
    expect(outcome.status).toBe('completed');
    const calls = outcome.messages.flatMap((message) => (message.role === 'assistant' ? message.toolCalls : []));
    const ids = calls.map((call) => call.id);
    expect(ids[0]).toBe('call_0');
    expect(new Set(ids).size).toBe(4);
    expect(ids.slice(1).every((id) => /^call_[0-9a-f-]{36}$/.test(id))).toBe(true);
    // One at a time: each call finishes before the next starts, in the model's order.
    const lifecycle = updates.filter((update) => update.type === 'tool_call_started' || update.type === 'tool_call_finished').map((update) => `${update.type === 'tool_call_started' ? 'start' : 'end'} ${'callId' in update ? update.callId : ''}`);
    expect(lifecycle).toEqual(ids.flatMap((id) => [`start ${id}`, `end ${id}`]));
    const results = outcome.messages.flatMap((message) => (message.role === 'tool' ? [[message.toolCallId, message.result.status]] : []));
    expect(results).toEqual(ids.map((id) => [id, 'succeeded']));
    // Each tool message answers the call with the same id, so every provider can pair them.
    expect(model.requests[2]?.messages.filter((message) => message.role === 'tool').map((message) => message.role === 'tool' && message.toolCallId)).toEqual(ids);
    expect(await readFile(join(machine.workspace, 'b.txt'), 'utf8')).toBe('second\n');
  });

  it('a failing model ends the turn failed, with what it said kept', async () => {
    const machine = await fixture();
    const session = await machine.session();
    const model: LanguageModel = {
      async *stream() {
        yield { type: 'text', text: 'Thinking' };
        throw new Error('rate limited (429)');
      },
    };
    const outcome = await session.runTurn({ input: 'hi', model });
    expect(outcome).toMatchObject({ status: 'failed', error: 'the model failed: rate limited (429)', text: 'Thinking' });
    expect((await session.messages()).map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(session.isActive).toBe(false);
  });

  it('a model that ignores the signal is not waited for when the turn is cancelled', async () => {
    const machine = await fixture();
    const session = await machine.session();
    const controller = new AbortController();
    const model: LanguageModel = {
      async *stream() {
        yield { type: 'text', text: 'Working' };
        controller.abort();
        await new Promise(() => undefined); // never yields again
      },
    };
    const outcome = await session.runTurn({ input: 'hi', model, signal: controller.signal });
    expect(outcome.status).toBe('cancelled');
    expect((await session.messages()).map((message) => (message.role === 'assistant' ? message.text : message.role))).toEqual(['user', 'Working']);
  });

  it('stops after maxSteps requests', async () => {
    const machine = await fixture();
    const session = await machine.session();
    const loop = () => [callTool('', 'list', {})];
    const outcome = await session.runTurn({ input: 'loop', model: new ScriptedModel([loop, loop, loop]), maxSteps: 2 });
    expect(outcome.status).toBe('max_steps');
    expect(outcome.steps).toBe(2);
    expect(outcome.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
  });

  it('one thing at a time: a second turn, a call or an undo during a turn are refused', async () => {
    const machine = await fixture();
    const session = await machine.session();
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const model = new ScriptedModel([
      async () => {
        await held;
        return [say('done')];
      },
    ]);
    const turn = session.runTurn({ input: 'wait', model });
    expect(session.activity).toBe('turn');
    const second = await session.runTurn({ input: 'again', model }).catch((error: unknown) => error);
    expect(hasCoreErrorCode(second, 'session_active')).toBe(true);
    const call = await session.callTool('list', {}).catch((error: unknown) => error);
    expect(hasCoreErrorCode(call, 'session_active')).toBe(true);
    expect(await session.undo(['call_x'])).toMatchObject({ ok: false, code: 'session_active', operation: 'undo' });
    const updated = await session.update({ mode: 'read-only' }).catch((error: unknown) => error);
    expect(hasCoreErrorCode(updated, 'session_active')).toBe(true);
    release();
    expect((await turn).status).toBe('completed');
    expect(session.isActive).toBe(false);
  });
});
