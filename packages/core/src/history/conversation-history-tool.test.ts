import { ToolResult } from '@openwork/tools-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { createCoreFixture, type CoreFixture } from '../test-support/core-fixture.js';
import { callTool, say, ScriptedModel } from '../test-support/scripted-model.js';
import type { Session } from '../session/session.js';
import { HISTORY_RESULT_BYTES } from './history-limits.js';

const fixtures: CoreFixture[] = [];
async function fixture(): Promise<CoreFixture> {
  const created = await createCoreFixture();
  fixtures.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((entry) => entry.cleanup()));
});

async function history(session: Session, input: Record<string, unknown>): Promise<string> {
  const { result } = await session.callTool('conversation_history', input, { record: false });
  expect(result.status).toBe('succeeded');
  return ToolResult.text(result);
}

describe('conversation_history (§3)', () => {
  it('lists stored messages by range, with calls and result texts, and says how to continue', async () => {
    const machine = await fixture();
    const session = await machine.session();
    expect(await history(session, {})).toBe('The conversation has no messages yet.');
    await session.runTurn({ input: 'What is in the workspace?', model: new ScriptedModel([[say('Looking.'), callTool('call_1', 'list', {})], [say('It is empty.')]]) });
    await session.runTurn({ input: 'Thanks, bye', model: new ScriptedModel([[say('Bye!')]]) });

    expect(await history(session, {})).toBe(
      [
        '#1 user: What is in the workspace?',
        '#2 assistant: Looking.\n[called list (call_1) with {}]',
        '#3 tool list (call_1): [empty directory]',
        '#4 assistant: It is empty.',
        '#5 user: Thanks, bye',
        '#6 assistant: Bye!',
        '[6 of 6 messages in #1–#6]',
      ].join('\n\n'),
    );
    expect(await history(session, { fromSequence: 2, limit: 2 })).toBe(
      ['#2 assistant: Looking.\n[called list (call_1) with {}]', '#3 tool list (call_1): [empty directory]', '[2 of 5 messages in #2–#6; continue with fromSequence=4]'].join('\n\n'),
    );
    expect(await history(session, { fromSequence: 9 })).toBe('No messages in #9–#6: the conversation has messages #1–#6.');
    const backwards = await session.callTool('conversation_history', { fromSequence: 4, toSequence: 2 }, { record: false });
    expect(backwards.result.error?.code).toBe('invalid_arguments');
  });

  it('finds messages by text, case-insensitively, in tool results too', async () => {
    const machine = await fixture();
    const session = await machine.session();
    await session.runTurn({ input: 'Remember the code WORD-42.', model: new ScriptedModel([[say('Noted: word-42.')]]) });
    await session.runTurn({ input: 'Something else.', model: new ScriptedModel([[callTool('call_x', 'nope', {})], [say('ok')]]) });
    expect(await history(session, { query: 'word-42' })).toBe(['#1 user: Remember the code WORD-42.', '#2 assistant: Noted: word-42.', '[2 of 2 messages in #1–#6 containing "word-42"]'].join('\n\n'));
    expect(await history(session, { query: 'not available in this toolset' })).toMatch(/^#5 tool nope \(call_x, failed\): Tool "nope" is not available/);
    expect(await history(session, { query: 'absent' })).toBe('No message in #1–#6 contains "absent".');
  });

  it('stays bounded: long messages are cut, the listing stops at its budget, one message can be read whole', async () => {
    const machine = await fixture();
    const session = await machine.session();
    const long = `${'a'.repeat(5000)}NEEDLE${'b'.repeat(5000)}`;
    for (let turn = 0; turn < 8; turn += 1) await session.runTurn({ input: long, model: new ScriptedModel([[say('x'.repeat(9000))]]) });

    const listing = await history(session, { limit: 50 });
    expect(Buffer.byteLength(listing)).toBeLessThanOrEqual(HISTORY_RESULT_BYTES + 200);
    expect(listing).toContain('[8006 characters of this message not shown; ask for this message alone to see more]');
    expect(listing).toMatch(/\[\d+ of 16 messages in #1–#16; continue with fromSequence=\d+\]$/);

    // A query shows the part around the match.
    expect(await history(session, { query: 'needle', limit: 1 })).toContain('aNEEDLEb');
    // One message alone: the whole text.
    const single = await history(session, { fromSequence: 1, toSequence: 1 });
    expect(single).toBe(`#1 user: ${long}\n\n[1 of 1 messages in #1–#1]`);
  });

  it('never shows artifacts', async () => {
    const machine = await fixture();
    const session = await machine.session();
    const { result } = await session.callTool('write', { path: 'plan.txt', content: 'step one\n' });
    const change = (result.artifacts[0] as unknown as { change: { afterHash: string } }).change;
    const listing = await history(session, {});
    expect(listing).toContain('Created plan.txt (+1)');
    for (const leak of [change.afterHash, 'file_change', 'hunks', 'afterContent']) expect(listing).not.toContain(leak);
  });
});
