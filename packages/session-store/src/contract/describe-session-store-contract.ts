import { ToolResult } from '@openwork/tools-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { ChangeNotFoundError } from '../change-not-found-error.js';
import type { FileChangeArtifact } from '../file-change-artifact.js';
import { InvalidRecordError } from '../invalid-record-error.js';
import { MessageConflictError } from '../message-conflict-error.js';
import type { NewMessage, NewToolMessage } from '../new-message.js';
import { SessionExistsError } from '../session-exists-error.js';
import { SessionNotFoundError } from '../session-not-found-error.js';
import type { SessionStore } from '../session-store.js';
import { SessionStoreError } from '../session-store-error.js';
import type { StoreClock } from '../store-clock.js';
import { StoreClosedError } from '../store-closed-error.js';
import type { StoredMessage } from '../stored-message.js';
import { UndoneConflictError } from '../undone-conflict-error.js';
import { completeToolTurn } from './complete-tool-turn.js';
import { describeAgentRunContract } from './describe-agent-runs-contract.js';
import { describeBackgroundTaskContract } from './describe-background-tasks-contract.js';
import type { SessionStoreContractHarness } from './session-store-contract-harness.js';

/** Options of `describeSessionStoreContract`. */
export interface SessionStoreContractOptions {
  /** When set, the suite is reported as skipped with this reason (e.g. no database configured). */
  readonly skip?: string;
  /** Writers in the concurrent-append test (8 by default) and messages each writes (25). */
  readonly concurrentWriters?: number;
  readonly messagesPerWriter?: number;
}

const ROOT = '/home/me/example-project';

/**
 * The behaviour every `SessionStore` must have, as a vitest suite. Call it from a test file of the
 * implementation with a harness that makes its stores; run it unchanged.
 */
export function describeSessionStoreContract(
  name: string,
  harness: SessionStoreContractHarness,
  options: SessionStoreContractOptions = {},
): void {
  if (options.skip !== undefined) {
    describe.skip(`SessionStore contract: ${name} (skipped: ${options.skip})`, () => {
      it('runs the contract suite', () => undefined);
    });
    return;
  }
  const writers = options.concurrentWriters ?? 8;
  const perWriter = options.messagesPerWriter ?? 25;

  describe(`SessionStore contract: ${name}`, () => {
    const opened: SessionStore[] = [];
    let now: StoreClock;

    /** A clock that moves one second per call, so every timestamp is distinct and ordered. */
    function tickingClock(): StoreClock {
      let time = Date.parse('2030-01-01T00:00:00.000Z');
      return () => new Date((time += 1000));
    }

    async function create(): Promise<SessionStore> {
      now = tickingClock();
      const store = await harness.create({ now });
      opened.push(store);
      return store;
    }
    async function peer(store: SessionStore): Promise<SessionStore> {
      const other = await harness.openPeer(store, { now });
      opened.push(other);
      return other;
    }
    async function reopen(store: SessionStore): Promise<SessionStore> {
      const again = await harness.reopen(store, { now });
      opened.push(again);
      return again;
    }

    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
      await harness.cleanup?.();
    });

    async function storeWithTurn(): Promise<{ store: SessionStore; sessionId: string; turn: NewMessage[]; stored: StoredMessage[] }> {
      const store = await create();
      const { id: sessionId } = await store.createSession({ workspaceRoots: [ROOT] });
      const turn = completeToolTurn();
      const stored: StoredMessage[] = [];
      for (const message of turn) stored.push(await store.appendMessage(sessionId, message));
      return { store, sessionId, turn, stored };
    }

    describe('sessions', () => {
      it('creates a session with the documented defaults', async () => {
        const store = await create();
        const session = await store.createSession({ workspaceRoots: [ROOT] });
        expect(session.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(session).toStrictEqual({
          id: session.id,
          workspaceRoots: [ROOT],
          mode: 'workspace-write',
          agentRole: 'default',
          createdAt: session.createdAt,
          updatedAt: session.createdAt,
          messageCount: 0,
        });
        expect(session.createdAt).toMatch(/^2030-01-01T00:00:\d\d\.000Z$/);
        expect(await store.getSession(session.id)).toStrictEqual(session);
      });

      it('keeps every field of a session across a reopen', async () => {
        const store = await create();
        const created = await store.createSession({
          id: 'session-ü-1',
          workspaceRoots: [ROOT, '/srv/other root'],
          mode: 'read-only',
          agentRole: 'explorer',
        });
        expect(created).toMatchObject({ id: 'session-ü-1', workspaceRoots: [ROOT, '/srv/other root'], mode: 'read-only', agentRole: 'explorer' });
        const again = await reopen(store);
        expect(await again.getSession('session-ü-1')).toStrictEqual(created);
      });

      it('refuses a second session with the same id and changes nothing', async () => {
        const store = await create();
        const first = await store.createSession({ id: 'same', workspaceRoots: [ROOT], agentRole: 'default' });
        const error = await store.createSession({ id: 'same', workspaceRoots: ['/elsewhere'], agentRole: 'explorer' }).catch((caught: unknown) => caught);
        expect(SessionExistsError.isInstance(error)).toBe(true);
        expect((error as SessionExistsError).sessionId).toBe('same');
        expect(await store.getSession('same')).toStrictEqual(first);
      });

      it('rejects malformed sessions with a message naming the field, and creates nothing', async () => {
        const store = await create();
        const attempts: [unknown, RegExp][] = [
          [{ workspaceRoots: ['relative/path'] }, /workspaceRoots\[0\] "relative\/path" is not an absolute path/],
          [{ workspaceRoots: '/one' }, /workspaceRoots must be an array/],
          [{ workspaceRoots: [ROOT], mode: 'yolo' }, /session mode must be one of read-only, workspace-write, full-access/],
          [{ id: '', workspaceRoots: [ROOT] }, /session id must not be empty/],
          [{ id: 'a\u0000b', workspaceRoots: [ROOT] }, /control character/],
          [{ id: 'x'.repeat(201), workspaceRoots: [ROOT] }, /limit is 200/],
          [{ workspaceRoots: [ROOT], agentRole: 7 }, /agent role must be a string/],
        ];
        for (const [input, message] of attempts) {
          const error = await store.createSession(input as never).catch((caught: unknown) => caught);
          expect(InvalidRecordError.isInstance(error), String(message)).toBe(true);
          expect((error as Error).message).toMatch(message);
        }
        expect(await store.listSessions()).toEqual([]);
      });

      it('returns undefined for an unknown session and rejects a malformed id', async () => {
        const store = await create();
        expect(await store.getSession('nobody')).toBeUndefined();
        const error = await store.getSession(42 as never).catch((caught: unknown) => caught);
        expect(InvalidRecordError.isInstance(error)).toBe(true);
      });

      it('lists sessions most recently updated first, with a limit', async () => {
        const store = await create();
        const a = await store.createSession({ id: 'a', workspaceRoots: [ROOT] });
        const b = await store.createSession({ id: 'b', workspaceRoots: [ROOT] });
        const c = await store.createSession({ id: 'c', workspaceRoots: [ROOT] });
        await store.appendMessage('a', { role: 'user', text: 'bring a to the top' });
        const listed = await store.listSessions();
        expect(listed.map((session) => session.id)).toEqual(['a', 'c', 'b']);
        expect(listed[0]?.messageCount).toBe(1);
        expect((listed[0]?.updatedAt ?? '') > a.updatedAt).toBe(true);
        expect(listed.slice(1)).toStrictEqual([c, b]);
        expect((await store.listSessions({ limit: 2 })).map((session) => session.id)).toEqual(['a', 'c']);
        const error = await store.listSessions({ limit: 0 }).catch((caught: unknown) => caught);
        expect(InvalidRecordError.isInstance(error)).toBe(true);
      });

      it('updates mode, role and roots, moving updatedAt, and keeps the rest', async () => {
        const store = await create();
        const created = await store.createSession({ id: 's', workspaceRoots: [ROOT] });
        const updated = await store.updateSession('s', { mode: 'full-access', agentRole: 'explorer' });
        expect(updated).toStrictEqual({
          ...created,
          mode: 'full-access',
          agentRole: 'explorer',
          updatedAt: updated.updatedAt,
        });
        expect(updated.updatedAt > created.updatedAt).toBe(true);
        const roots = await store.updateSession('s', { workspaceRoots: ['/a', '/b'] });
        expect(roots.workspaceRoots).toEqual(['/a', '/b']);
        expect(roots.mode).toBe('full-access');
        const again = await reopen(store);
        expect(await again.getSession('s')).toStrictEqual(roots);
        const missing = await again.updateSession('nobody', { mode: 'read-only' }).catch((caught: unknown) => caught);
        expect(SessionNotFoundError.isInstance(missing)).toBe(true);
        const invalid = await again.updateSession('s', { mode: 'sideways' as never }).catch((caught: unknown) => caught);
        expect(InvalidRecordError.isInstance(invalid)).toBe(true);
        expect(await again.getSession('s')).toStrictEqual(roots);
      });

      it('deletes a session with its messages and file changes', async () => {
        const { store, sessionId } = await storeWithTurn();
        const other = await store.createSession({ id: 'kept', workspaceRoots: [ROOT] });
        await store.appendMessage('kept', { role: 'user', text: 'still here' });
        expect(await store.deleteSession(sessionId)).toBe(true);
        expect(await store.deleteSession(sessionId)).toBe(false);
        expect(await store.getSession(sessionId)).toBeUndefined();
        for (const read of [() => store.loadMessages(sessionId), () => store.listFileChanges(sessionId)]) {
          const error = await read().catch((caught: unknown) => caught);
          expect(SessionNotFoundError.isInstance(error)).toBe(true);
        }
        const again = await reopen(store);
        expect(await again.getSession(sessionId)).toBeUndefined();
        expect((await again.getSession('kept'))?.messageCount).toBe(1);
        expect((await again.loadMessages('kept')).map((message) => message.id)).toHaveLength(1);
        expect(other.id).toBe('kept');
        // The deleted session's ids are free again.
        await again.createSession({ id: sessionId, workspaceRoots: [ROOT] });
        for (const message of completeToolTurn()) await again.appendMessage(sessionId, message);
        expect(await again.listFileChanges(sessionId)).toHaveLength(1);
      });
    });

    describe('messages', () => {
      it('round-trips a complete tool turn exactly, artifacts inside the tool message, across a reopen (§8.4)', async () => {
        const { store, sessionId, turn, stored } = await storeWithTurn();
        const expected = turn.map((message, index) => expectedStored(message, sessionId, index + 1, stored[index]?.createdAt ?? ''));
        expect(stored).toStrictEqual(expected);
        const again = await reopen(store);
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

      it('round-trips a result with image parts exactly, across a reopen (issue 27)', async () => {
        const store = await create();
        await store.createSession({ id: 's', workspaceRoots: [ROOT] });
        // 300 KB of base64: an image part is stored whole, not cut like text.
        const data = 'iVBORw0KGgo'.padEnd(300_000, 'A');
        const result = ToolResult.success('image/png 2×2, 225 KB', { images: [{ type: 'image', mimeType: 'image/png', data }] });
        await store.appendMessage('s', { role: 'assistant', text: '', toolCalls: [{ id: 'c', toolId: 'read', input: { path: 'a.png' } }] });
        const stored = await store.appendMessage('s', { role: 'tool', toolCallId: 'c', toolId: 'read', result });
        const loaded = await (await reopen(store)).loadMessages('s', { afterSequence: 1 });
        expect(loaded).toStrictEqual([stored]);
        expect(loaded[0]?.role === 'tool' && loaded[0].result.content).toStrictEqual([
          { type: 'text', text: 'image/png 2×2, 225 KB' },
          { type: 'image', mimeType: 'image/png', data },
        ]);
      });

      it('numbers messages 1, 2, 3… and pages with afterSequence and limit', async () => {
        const store = await create();
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
        const store = await create();
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

      it('enforces the log: a result answers a known call once, with its tool; ids are unique', async () => {
        const { store, sessionId } = await storeWithTurn();
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

      it('rejects malformed messages with a message naming the field, and writes nothing', async () => {
        const store = await create();
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
        const store = await create();
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
        const store = await create();
        await store.createSession({ id: 's', workspaceRoots: [ROOT] });
        const texts = ['emoji 🙂 and 中文 and é', 'a NUL \u0000 inside', 'lone surrogate \ud800 kept', 'x'.repeat(300_000), ''];
        for (const text of texts) await store.appendMessage('s', { role: 'user', text });
        const again = await reopen(store);
        expect((await again.loadMessages('s')).map((message) => (message.role === 'user' ? message.text : null))).toEqual(texts);
      });
    });

    describe('file changes and undo (§8.4)', () => {
      it('lists file changes in message order with the whole stored artifact', async () => {
        const { store, sessionId, turn } = await storeWithTurn();
        for (const message of completeToolTurn('turn-2')) await store.appendMessage(sessionId, message);
        const changes = await store.listFileChanges(sessionId);
        const artifact = (turn[2] as NewToolMessage).result.artifacts[0];
        expect(changes).toStrictEqual([
          {
            sessionId,
            changeId: 'turn-1-call-edit',
            path: 'src/greeting.ts',
            undone: false,
            toolCallId: 'turn-1-call-edit',
            messageId: 'turn-1-tool-edit',
            messageSequence: 3,
            artifactIndex: 0,
            artifact,
          },
          expect.objectContaining({ changeId: 'turn-2-call-edit', messageSequence: 8, undone: false }),
        ]);
        const empty = await store.createSession({ workspaceRoots: [ROOT] });
        expect(await store.listFileChanges(empty.id)).toEqual([]);
      });

      it('undo and reapply rewrite undone in the stored artifact, and it survives a reopen', async () => {
        const { store, sessionId, stored } = await storeWithTurn();
        const before = await store.getSession(sessionId);
        const undone = await store.setUndone(sessionId, { changeIds: ['turn-1-call-edit'], undone: true });
        expect(undone).toHaveLength(1);
        expect(undone[0]).toMatchObject({ changeId: 'turn-1-call-edit', undone: true, artifact: { change: { undone: true, path: 'src/greeting.ts' } } });
        const after = await store.getSession(sessionId);
        expect((after?.updatedAt ?? '') > (before?.updatedAt ?? '')).toBe(true);

        const again = await reopen(store);
        const [tool] = (await again.loadMessages(sessionId, { afterSequence: 2, limit: 1 })) as [StoredMessage];
        const original = stored[2];
        if (tool.role !== 'tool' || original?.role !== 'tool') throw new Error('message 3 is the edit result');
        // Only `undone` changed, in place: every other field and the key order are as written.
        const originalArtifact = original.result.artifacts[0] as FileChangeArtifact;
        const expectedArtifact = { ...originalArtifact, change: { ...originalArtifact.change, undone: true } };
        expect(JSON.stringify(tool.result.artifacts[0])).toBe(JSON.stringify(expectedArtifact));
        expect(tool.result.content).toStrictEqual(original.result.content);
        expect((await again.listFileChanges(sessionId))[0]?.undone).toBe(true);

        const reapplied = await again.setUndone(sessionId, { changeIds: ['turn-1-call-edit'], undone: false });
        expect(reapplied[0]?.artifact.change.undone).toBe(false);
        expect(await again.loadMessages(sessionId)).toStrictEqual(stored);
      });

      it('refuses to undo an undone change, all or none across a batch, with a conflict naming it', async () => {
        const { store, sessionId } = await storeWithTurn();
        for (const message of completeToolTurn('turn-2')) await store.appendMessage(sessionId, message);
        await store.setUndone(sessionId, { changeIds: ['turn-2-call-edit'], undone: true });
        const error = await store
          .setUndone(sessionId, { changeIds: ['turn-1-call-edit', 'turn-2-call-edit'], undone: true })
          .catch((caught: unknown) => caught);
        expect(UndoneConflictError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ code: 'undone_conflict', sessionId, changeId: 'turn-2-call-edit', undone: true });
        expect((error as Error).message).toMatch(/is already undone/);
        expect((await store.listFileChanges(sessionId)).map((change) => change.undone)).toEqual([false, true]);

        const reapplyConflict = await store
          .setUndone(sessionId, { changeIds: ['turn-1-call-edit'], undone: false })
          .catch((caught: unknown) => caught);
        expect(reapplyConflict).toMatchObject({ code: 'undone_conflict', changeId: 'turn-1-call-edit', undone: false });

        const both = await store.setUndone(sessionId, { changeIds: ['turn-2-call-edit', 'turn-1-call-edit'], undone: false }).catch((caught: unknown) => caught);
        expect(UndoneConflictError.isInstance(both)).toBe(true);
        expect((await store.listFileChanges(sessionId)).map((change) => change.undone)).toEqual([false, true]);
      });

      it('undoes a batch whose changes share one tool message, rewriting each artifact', async () => {
        const store = await create();
        await store.createSession({ id: 's', workspaceRoots: [ROOT] });
        await store.appendMessage('s', { role: 'assistant', text: '', toolCalls: [{ id: 'multi', toolId: 'apply_patch', input: {} }] });
        const artifacts = [fileChange('multi:a', 'a.txt'), { kind: 'note', text: 'between' }, fileChange('multi:b', 'b.txt')];
        await store.appendMessage('s', { role: 'tool', toolCallId: 'multi', toolId: 'apply_patch', result: ToolResult.success('patched', { artifacts }) });
        const updated = await store.setUndone('s', { changeIds: ['multi:b', 'multi:a'], undone: true });
        expect(updated.map((change) => [change.changeId, change.artifactIndex, change.undone])).toEqual([
          ['multi:b', 2, true],
          ['multi:a', 0, true],
        ]);
        const again = await reopen(store);
        const [tool] = await again.loadMessages('s', { afterSequence: 1 });
        expect(tool?.role === 'tool' ? tool.result.artifacts : null).toStrictEqual([
          markUndone(artifacts[0] as FileChangeArtifact),
          artifacts[1],
          markUndone(artifacts[2] as FileChangeArtifact),
        ]);
        expect((await again.listFileChanges('s')).map((change) => [change.changeId, change.undone])).toEqual([
          ['multi:a', true],
          ['multi:b', true],
        ]);
      });

      it('names an unknown change and rejects malformed updates without changing anything', async () => {
        const { store, sessionId } = await storeWithTurn();
        const unknown = await store
          .setUndone(sessionId, { changeIds: ['turn-1-call-edit', 'no-such-change'], undone: true })
          .catch((caught: unknown) => caught);
        expect(ChangeNotFoundError.isInstance(unknown)).toBe(true);
        expect(unknown).toMatchObject({ changeId: 'no-such-change', sessionId });
        for (const update of [{ changeIds: [], undone: true }, { changeIds: ['a', 'a'], undone: true }, { changeIds: ['a'], undone: 'yes' }]) {
          const error = await store.setUndone(sessionId, update as never).catch((caught: unknown) => caught);
          expect(InvalidRecordError.isInstance(error)).toBe(true);
        }
        expect((await store.listFileChanges(sessionId))[0]?.undone).toBe(false);
        const noSession = await store.setUndone('nobody', { changeIds: ['x'], undone: true }).catch((caught: unknown) => caught);
        expect(SessionNotFoundError.isInstance(noSession)).toBe(true);
      });

      it('two hosts undoing the same change at the same moment: exactly one wins, the other gets a conflict', async () => {
        const { store, sessionId } = await storeWithTurn();
        const rounds = 6;
        for (let round = 2; round <= rounds; round += 1) {
          for (const message of completeToolTurn(`turn-${round}`)) await store.appendMessage(sessionId, message);
        }
        const other = await peer(store);
        for (let round = 1; round <= rounds; round += 1) {
          const changeIds = [`turn-${round}-call-edit`];
          for (const undone of [true, false]) {
            const outcomes = await Promise.allSettled([store.setUndone(sessionId, { changeIds, undone }), other.setUndone(sessionId, { changeIds, undone })]);
            const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
            const lost = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
            expect(won).toHaveLength(1);
            expect(lost).toHaveLength(1);
            expect(UndoneConflictError.isInstance(lost[0]?.reason)).toBe(true);
            expect((await other.listFileChanges(sessionId))[round - 1]?.undone).toBe(undone);
          }
        }
      });
    });

    describe('concurrency', () => {
      it(`${writers} writers on one session keep every message exactly once and in order`, async () => {
        const store = await create();
        await store.createSession({ id: 'busy', workspaceRoots: [ROOT] });
        const handles = [store];
        for (let index = 1; index < writers; index += 1) handles.push(await peer(store));
        await Promise.all(
          handles.map(async (handle, writer) => {
            for (let index = 0; index < perWriter; index += 1) {
              await handle.appendMessage('busy', { id: `w${writer}-m${index}`, role: 'user', text: `writer ${writer} message ${index}` });
            }
          }),
        );
        const messages = await store.loadMessages('busy');
        expect(messages.map((message) => message.sequence)).toEqual(Array.from({ length: writers * perWriter }, (_, index) => index + 1));
        expect(new Set(messages.map((message) => message.id)).size).toBe(writers * perWriter);
        for (let writer = 0; writer < writers; writer += 1) {
          const own = messages.filter((message) => message.id.startsWith(`w${writer}-`)).map((message) => message.id);
          expect(own).toEqual(Array.from({ length: perWriter }, (_, index) => `w${writer}-m${index}`));
        }
        expect((await store.getSession('busy'))?.messageCount).toBe(writers * perWriter);
      });
    });

    describe('lifecycle and errors', () => {
      it('refuses every call after close with StoreClosedError; closing twice is harmless', async () => {
        const store = await create();
        await store.createSession({ id: 's', workspaceRoots: [ROOT] });
        await store.close();
        await store.close();
        const calls: (() => Promise<unknown>)[] = [
          () => store.createSession({ workspaceRoots: [ROOT] }),
          () => store.getSession('s'),
          () => store.listSessions(),
          () => store.updateSession('s', { mode: 'read-only' }),
          () => store.deleteSession('s'),
          () => store.appendMessage('s', { role: 'user', text: 'x' }),
          () => store.loadMessages('s'),
          () => store.listFileChanges('s'),
          () => store.setUndone('s', { changeIds: ['x'], undone: true }),
        ];
        for (const call of calls) {
          const error = await call().catch((caught: unknown) => caught);
          expect(StoreClosedError.isInstance(error)).toBe(true);
          expect(SessionStoreError.isInstance(error)).toBe(true);
        }
      });
    });

    describeAgentRunContract({ create, peer, reopen });
    describeBackgroundTaskContract({ create, peer, reopen });
  });
}

/** What the store must return for `message` appended as number `sequence`. */
function expectedStored(message: NewMessage, sessionId: string, sequence: number, createdAt: string): StoredMessage {
  const head = { sessionId, id: message.id ?? '', sequence, createdAt };
  const metadata = message.metadata === undefined ? {} : { metadata: message.metadata };
  switch (message.role) {
    case 'user':
      return { ...head, role: 'user', text: message.text, ...metadata };
    case 'assistant':
      return { ...head, role: 'assistant', text: message.text, toolCalls: message.toolCalls ?? [], ...metadata };
    case 'tool':
      return { ...head, role: 'tool', toolCallId: message.toolCallId, toolId: message.toolId, result: message.result, ...metadata };
  }
}

function fileChange(changeId: string, path: string): FileChangeArtifact {
  return { kind: 'file_change', change: { changeId, path, kind: 'created', additions: 1, deletions: 0, undone: false } };
}

function markUndone(artifact: FileChangeArtifact): FileChangeArtifact {
  return { ...artifact, change: { ...artifact.change, undone: true } };
}
