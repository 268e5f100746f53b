import { describe, expect, it } from 'vitest';
import { InvalidRecordError } from '../invalid-record-error.js';
import { MessageConflictError } from '../message-conflict-error.js';
import type { NewMessage, NewToolMessage } from '../new-message.js';
import { SessionNotFoundError } from '../session-not-found-error.js';
import type { StoredMessage } from '../stored-message.js';
import { expectedStored, fileChange, storeWithTurn, ROOT, type ContractStores } from './contract-stores.js';
import { ToolResult } from '@openwork/tools-contract';

/**
 * Messages: append, load, ids, tool results and their artifacts (§8.2) Part of the one
 * `SessionStore` contract suite, run unchanged against every store.
 */
export function describeMessagesContract(stores: ContractStores): void {
  describe('messages', () => {
    describeMessageRoundTrips(stores);
    describeMessageLog(stores);
    describeMessageValidation(stores);
  });
}

/** Appending and loading: exact round trips, numbering and paging, a safe retry. */
function describeMessageRoundTrips(stores: ContractStores): void {
  it('round-trips a complete tool turn exactly, artifacts inside the tool message, across a reopen (§8.4)', async () => {
    const { store, sessionId, turn, stored } = await storeWithTurn(stores);
    const expected = turn.map((message, index) => expectedStored(message, sessionId, index + 1, stored[index]?.createdAt ?? ''));
    expect(stored).toStrictEqual(expected);
    const again = await stores.reopen(store);
    const loaded = await again.loadMessages(sessionId);
    expect(loaded).toStrictEqual(expected);
    // Byte for byte, key order included: the UI shows the stored diff without reading the disk.
    expect(JSON.stringify(loaded)).toBe(JSON.stringify(expected));
    const tool = loaded[2];
    expect(tool?.role === 'tool' && tool.result.artifacts[0]?.['kind']).toBe('file_change');
    const session = await again.getSession(sessionId);
    expect(session?.messageCount).toBe(5);
    expect(session?.updatedAt).toBe(stored[4]?.createdAt);
  });

  it('round-trips a result with image parts exactly, across a reopen', async () => {
    const store = await stores.create();
    await store.createSession({ id: 's', workspaceRoots: [ROOT] });
    // 300 KB of base64: an image part is stored whole, not cut like text.
    const data = 'iVBORw0KGgo'.padEnd(300_000, 'A');
    const result = ToolResult.success('image/png 2×2, 225 KB', { images: [{ type: 'image', mimeType: 'image/png', data }] });
    await store.appendMessage('s', { role: 'assistant', text: '', toolCalls: [{ id: 'c', toolId: 'read', input: { path: 'a.png' } }] });
    const stored = await store.appendMessage('s', { role: 'tool', toolCallId: 'c', toolId: 'read', result });
    const loaded = await (await stores.reopen(store)).loadMessages('s', { afterSequence: 1 });
    expect(loaded).toStrictEqual([stored]);
    expect(loaded[0]?.role === 'tool' && loaded[0].result.content).toStrictEqual([
      { type: 'text', text: 'image/png 2×2, 225 KB' },
      { type: 'image', mimeType: 'image/png', data },
    ]);
  });

  it('numbers messages 1, 2, 3… and pages with afterSequence and limit', async () => {
    const store = await stores.create();
    await store.createSession({ id: 's', workspaceRoots: [ROOT] });
    const appended: StoredMessage[] = [];
    for (let index = 0; index < 7; index += 1) appended.push(await store.appendMessage('s', { role: 'user', text: `message ${index}` }));
    expect(appended.map((message) => message.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const times = appended.map((message) => message.createdAt);
    expect([...times].sort()).toEqual(times);
    expect((await store.loadMessages('s', { afterSequence: 5 })).map((message) => message.sequence)).toEqual([6, 7]);
    expect((await store.loadMessages('s', { afterSequence: 2, limit: 3 })).map((message) => message.sequence)).toEqual([3, 4, 5]);
    expect(await store.loadMessages('s', { afterSequence: 7 })).toEqual([]);
    const error = await store.loadMessages('s', { afterSequence: -1 }).catch((caught: unknown) => caught);
    expect(InvalidRecordError.isInstance(error)).toBe(true);
  });

  it('returns the stored message when the same message is appended again with its id (a safe retry)', async () => {
    const store = await stores.create();
    await store.createSession({ id: 's', workspaceRoots: [ROOT] });
    const message: NewMessage = { id: 'm-1', role: 'user', text: 'hello' };
    const first = await store.appendMessage('s', message);
    const retry = await store.appendMessage('s', message);
    expect(retry).toStrictEqual(first);
    const conflict = await store.appendMessage('s', { id: 'm-1', role: 'user', text: 'something else' }).catch((caught: unknown) => caught);
    expect(MessageConflictError.isInstance(conflict)).toBe(true);
    expect((conflict as MessageConflictError).reason).toBe('message_id');
    expect((conflict as Error).message).toContain('"m-1" is already used by message 1');
    expect(await store.loadMessages('s')).toStrictEqual([first]);
    expect((await store.getSession('s'))?.messageCount).toBe(1);
  });
}

/** The log's rules: a result answers a known call once, with its tool; ids are unique. */
function describeMessageLog(stores: ContractStores): void {
  it('enforces the log: a result answers a known call once, with its tool; ids are unique', async () => {
    const { store, sessionId } = await storeWithTurn(stores);
    const countBefore = (await store.getSession(sessionId))?.messageCount;
    const result = ToolResult.success('ok');
    const unknown = await store
      .appendMessage(sessionId, { role: 'tool', toolCallId: 'never-made', toolId: 'read', result })
      .catch((caught: unknown) => caught);
    expect(InvalidRecordError.isInstance(unknown)).toBe(true);
    expect((unknown as Error).message).toMatch(/no assistant message with tool call "never-made"/);

    await store.appendMessage(sessionId, { role: 'assistant', text: '', toolCalls: [{ id: 'call-read', toolId: 'read', input: { path: 'a' } }] });
    const wrongTool = await store
      .appendMessage(sessionId, { role: 'tool', toolCallId: 'call-read', toolId: 'write', result })
      .catch((caught: unknown) => caught);
    expect(InvalidRecordError.isInstance(wrongTool)).toBe(true);
    expect((wrongTool as Error).message).toMatch(/was made to "read", but its result names "write"/);

    const twice = await store
      .appendMessage(sessionId, { role: 'tool', toolCallId: 'turn-1-call-edit', toolId: 'edit', result })
      .catch((caught: unknown) => caught);
    expect(MessageConflictError.isInstance(twice)).toBe(true);
    expect((twice as MessageConflictError).reason).toBe('tool_result');

    const reusedCall = await store
      .appendMessage(sessionId, { role: 'assistant', text: '', toolCalls: [{ id: 'turn-1-call-bash', toolId: 'bash', input: {} }] })
      .catch((caught: unknown) => caught);
    expect(MessageConflictError.isInstance(reusedCall)).toBe(true);
    expect((reusedCall as MessageConflictError).reason).toBe('tool_call_id');

    // A result whose file change reuses a stored change id is refused whole: the call stays unanswered.
    const reusedChange: NewToolMessage = {
      role: 'tool',
      toolCallId: 'call-read',
      toolId: 'read',
      result: ToolResult.success('x', { artifacts: [fileChange('turn-1-call-edit', 'b.txt')] }),
    };
    const changeConflict = await store.appendMessage(sessionId, reusedChange).catch((caught: unknown) => caught);
    expect(MessageConflictError.isInstance(changeConflict)).toBe(true);
    expect((changeConflict as MessageConflictError).reason).toBe('change_id');

    expect((await store.getSession(sessionId))?.messageCount).toBe((countBefore ?? 0) + 1);
    const answered = await store.appendMessage(sessionId, { role: 'tool', toolCallId: 'call-read', toolId: 'read', result });
    expect(answered.sequence).toBe((countBefore ?? 0) + 2);
    expect((await store.listFileChanges(sessionId)).map((change) => change.changeId)).toEqual(['turn-1-call-edit']);
  });
}

/** Malformed messages, frozen records, text kept byte for byte. */
function describeMessageValidation(stores: ContractStores): void {
  it('rejects malformed messages with a message naming the field, and writes nothing', async () => {
    const store = await stores.create();
    await store.createSession({ id: 's', workspaceRoots: [ROOT] });
    await store.appendMessage('s', { role: 'assistant', text: '', toolCalls: [{ id: 'c', toolId: 'edit', input: {} }] });
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const good = ToolResult.success('ok');
    const attempts: [unknown, RegExp][] = [
      [{ role: 'system', text: 'x' }, /message role must be user, assistant or tool/],
      [{ role: 'user', text: 5 }, /user message text must be a string/],
      [{ role: 'assistant', text: '', toolCalls: [{ id: 'd', toolId: 'read', input: { n: Number.NaN } }] }, /toolCalls\[0\]\.input\.n is NaN/],
      [{ role: 'assistant', text: '', toolCalls: [{ id: 'd', toolId: 'read', input: new Date(0) }] }, /toolCalls\[0\]\.input is a Date/],
      [{ role: 'assistant', text: '', toolCalls: [{ id: 'd', toolId: 'read', input: cyclic }] }, /cycle/],
      [{ role: 'assistant', text: '', toolCalls: [{ id: 'd', toolId: 'read', input: {} }, { id: 'd', toolId: 'read', input: {} }] }, /appears twice/],
      [{ role: 'tool', toolCallId: 'c', toolId: 'edit', result: { ...good, status: 'great' } }, /result\.status must be one of/],
      [{ role: 'tool', toolCallId: 'c', toolId: 'edit', result: { ...good, status: 'failed' } }, /result\.error must be \{ code, message, retryable \}/],
      [{ role: 'tool', toolCallId: 'c', toolId: 'edit', result: { ...good, content: [{ type: 'image' }] } }, /content\[0\] is not a valid image part: an image's mimeType must be one of/],
      [{ role: 'tool', toolCallId: 'c', toolId: 'edit', result: { ...good, content: [{ type: 'audio', data: 'AAAA' }] } }, /content\[0\] must be \{ type: 'text', text: string \} or \{ type: 'image', mimeType, data \}/],
      [{ role: 'tool', toolCallId: 'c', toolId: 'edit', result: { ...good, artifacts: [{ note: 'no kind' }] } }, /artifacts\[0\]\.kind must be a non-empty string/],
      [
        { role: 'tool', toolCallId: 'c', toolId: 'edit', result: { ...good, artifacts: [{ kind: 'file_change', change: { changeId: 'c', path: 'a' } }] } },
        /artifacts\[0\]\.change\.undone must be a boolean/,
      ],
      [
        { role: 'tool', toolCallId: 'c', toolId: 'edit', result: { ...good, artifacts: [{ kind: 'file_change', changeId: 'c', path: 'a', undone: false }] } },
        /artifacts\[0\]\.change must be an object with changeId, path and undone/,
      ],
      [{ role: 'tool', toolCallId: 'c', toolId: 'edit', result: { ...good, artifacts: [{ kind: 'x', f: () => 1 }] } }, /artifacts\[0\]\.f is a function/],
      [{ role: 'user', text: 'x', metadata: ['not', 'an', 'object'] }, /metadata must be a JSON object/],
    ];
    for (const [input, message] of attempts) {
      const error = await store.appendMessage('s', input as never).catch((caught: unknown) => caught);
      expect(InvalidRecordError.isInstance(error), String(message)).toBe(true);
      expect((error as Error).message).toMatch(message);
    }
    expect((await store.loadMessages('s')).map((message) => message.sequence)).toEqual([1]);
    const missing = await store.appendMessage('nobody', { role: 'user', text: 'x' }).catch((caught: unknown) => caught);
    expect(SessionNotFoundError.isInstance(missing)).toBe(true);
  });

  it('returns frozen records that cannot change what is stored, and drops undefined properties like JSON', async () => {
    const store = await stores.create();
    await store.createSession({ id: 's', workspaceRoots: [ROOT] });
    const input = { role: 'user' as const, text: 'hi', metadata: { keep: 1, drop: undefined } };
    const stored = await store.appendMessage('s', input as never);
    expect(stored.metadata).toStrictEqual({ keep: 1 });
    expect(Object.isFrozen(stored)).toBe(true);
    expect(() => {
      (stored.metadata as Record<string, unknown>)['keep'] = 2;
    }).toThrow(TypeError);
    input.metadata.keep = 3;
    expect((await store.loadMessages('s'))[0]?.metadata).toStrictEqual({ keep: 1 });
  });

  it('keeps text byte for byte: unicode, NUL, very long text', async () => {
    const store = await stores.create();
    await store.createSession({ id: 's', workspaceRoots: [ROOT] });
    const texts = ['emoji 🙂 and 中文 and é', 'a NUL \u0000 inside', 'lone surrogate \ud800 kept', 'x'.repeat(300_000), ''];
    for (const text of texts) await store.appendMessage('s', { role: 'user', text });
    const again = await stores.reopen(store);
    expect((await again.loadMessages('s')).map((message) => (message.role === 'user' ? message.text : null))).toEqual(texts);
  });
}
