import { describe, expect, it } from 'vitest';
import { InvalidRecordError } from '../invalid-record-error.js';
import { SessionExistsError } from '../session-exists-error.js';
import { SessionNotFoundError } from '../session-not-found-error.js';
import { completeToolTurn } from './complete-tool-turn.js';
import { storeWithTurn, ROOT, type ContractStores } from './contract-stores.js';

/**
 * Sessions: create, get, list, update, delete (§8.1) Part of the one
 * `SessionStore` contract suite, run unchanged against every store.
 */
export function describeSessionsContract(stores: ContractStores): void {
  describe('sessions', () => {
    describeSessionCreation(stores);
    describeSessionLifecycle(stores);
  });
}

/** Creating sessions: defaults, every field across a reopen, duplicates and malformed input. */
function describeSessionCreation(stores: ContractStores): void {
  it('creates a session with the documented defaults', async () => {
    const store = await stores.create();
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
    const store = await stores.create();
    const created = await store.createSession({
      id: 'session-ü-1',
      workspaceRoots: [ROOT, '/srv/other root'],
      mode: 'read-only',
      agentRole: 'explorer',
    });
    expect(created).toMatchObject({ id: 'session-ü-1', workspaceRoots: [ROOT, '/srv/other root'], mode: 'read-only', agentRole: 'explorer' });
    const again = await stores.reopen(store);
    expect(await again.getSession('session-ü-1')).toStrictEqual(created);
  });

  it('refuses a second session with the same id and changes nothing', async () => {
    const store = await stores.create();
    const first = await store.createSession({ id: 'same', workspaceRoots: [ROOT], agentRole: 'default' });
    const error = await store.createSession({ id: 'same', workspaceRoots: ['/elsewhere'], agentRole: 'explorer' }).catch((caught: unknown) => caught);
    expect(SessionExistsError.isInstance(error)).toBe(true);
    expect((error as SessionExistsError).sessionId).toBe('same');
    expect(await store.getSession('same')).toStrictEqual(first);
  });

  it('rejects malformed sessions with a message naming the field, and creates nothing', async () => {
    const store = await stores.create();
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
}

/** Reading, listing, updating and deleting sessions. */
function describeSessionLifecycle(stores: ContractStores): void {
  it('returns undefined for an unknown session and rejects a malformed id', async () => {
    const store = await stores.create();
    expect(await store.getSession('nobody')).toBeUndefined();
    const error = await store.getSession(42 as never).catch((caught: unknown) => caught);
    expect(InvalidRecordError.isInstance(error)).toBe(true);
  });

  it('lists sessions most recently updated first, with a limit', async () => {
    const store = await stores.create();
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
    const store = await stores.create();
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
    const again = await stores.reopen(store);
    expect(await again.getSession('s')).toStrictEqual(roots);
    const missing = await again.updateSession('nobody', { mode: 'read-only' }).catch((caught: unknown) => caught);
    expect(SessionNotFoundError.isInstance(missing)).toBe(true);
    const invalid = await again.updateSession('s', { mode: 'sideways' as never }).catch((caught: unknown) => caught);
    expect(InvalidRecordError.isInstance(invalid)).toBe(true);
    expect(await again.getSession('s')).toStrictEqual(roots);
  });

  it('deletes a session with its messages and file changes', async () => {
    const { store, sessionId } = await storeWithTurn(stores);
    const other = await store.createSession({ id: 'kept', workspaceRoots: [ROOT] });
    await store.appendMessage('kept', { role: 'user', text: 'still here' });
    expect(await store.deleteSession(sessionId)).toBe(true);
    expect(await store.deleteSession(sessionId)).toBe(false);
    expect(await store.getSession(sessionId)).toBeUndefined();
    for (const read of [() => store.loadMessages(sessionId), () => store.listFileChanges(sessionId)]) {
      const error = await read().catch((caught: unknown) => caught);
      expect(SessionNotFoundError.isInstance(error)).toBe(true);
    }
    const again = await stores.reopen(store);
    expect(await again.getSession(sessionId)).toBeUndefined();
    expect((await again.getSession('kept'))?.messageCount).toBe(1);
    expect((await again.loadMessages('kept')).map((message) => message.id)).toHaveLength(1);
    expect(other.id).toBe('kept');
    // The deleted session's ids are free again.
    await again.createSession({ id: sessionId, workspaceRoots: [ROOT] });
    for (const message of completeToolTurn()) await again.appendMessage(sessionId, message);
    expect(await again.listFileChanges(sessionId)).toHaveLength(1);
  });
}
