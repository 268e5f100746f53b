import { describe, expect, it } from 'vitest';
import { ChangeNotFoundError } from '../change-not-found-error.js';
import type { FileChangeArtifact } from '../file-change-artifact.js';
import { InvalidRecordError } from '../invalid-record-error.js';
import type { NewToolMessage } from '../new-message.js';
import { SessionNotFoundError } from '../session-not-found-error.js';
import type { StoredMessage } from '../stored-message.js';
import { UndoneConflictError } from '../undone-conflict-error.js';
import { completeToolTurn } from './complete-tool-turn.js';
import { fileChange, markUndone, storeWithTurn, ROOT, type ContractStores } from './contract-stores.js';
import { ToolResult } from '@openwork/tools-contract';

/**
 * File changes and undo (§8.4) Part of the one
 * `SessionStore` contract suite, run unchanged against every store.
 */
export function describeFileChangesContract(stores: ContractStores): void {
  describe('file changes and undo (§8.4)', () => {
    describeFileChangeUndo(stores);
    describeFileChangeBatches(stores);
  });
}

/** Listing file changes, undo and reapply, refusals of an undone change. */
function describeFileChangeUndo(stores: ContractStores): void {
  it('lists file changes in message order with the whole stored artifact', async () => {
    const { store, sessionId, turn } = await storeWithTurn(stores);
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
    const { store, sessionId, stored } = await storeWithTurn(stores);
    const before = await store.getSession(sessionId);
    const undone = await store.setUndone(sessionId, { changeIds: ['turn-1-call-edit'], undone: true });
    expect(undone).toHaveLength(1);
    expect(undone[0]).toMatchObject({ changeId: 'turn-1-call-edit', undone: true, artifact: { change: { undone: true, path: 'src/greeting.ts' } } });
    const after = await store.getSession(sessionId);
    expect((after?.updatedAt ?? '') > (before?.updatedAt ?? '')).toBe(true);

    const again = await stores.reopen(store);
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
    const { store, sessionId } = await storeWithTurn(stores);
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
}

/** Batches sharing one tool message, unknown and malformed updates, two hosts at once. */
function describeFileChangeBatches(stores: ContractStores): void {
  it('undoes a batch whose changes share one tool message, rewriting each artifact', async () => {
    const store = await stores.create();
    await store.createSession({ id: 's', workspaceRoots: [ROOT] });
    await store.appendMessage('s', { role: 'assistant', text: '', toolCalls: [{ id: 'multi', toolId: 'apply_patch', input: {} }] });
    const artifacts = [fileChange('multi:a', 'a.txt'), { kind: 'note', text: 'between' }, fileChange('multi:b', 'b.txt')];
    await store.appendMessage('s', { role: 'tool', toolCallId: 'multi', toolId: 'apply_patch', result: ToolResult.success('patched', { artifacts }) });
    const updated = await store.setUndone('s', { changeIds: ['multi:b', 'multi:a'], undone: true });
    expect(updated.map((change) => [change.changeId, change.artifactIndex, change.undone])).toEqual([
      ['multi:b', 2, true],
      ['multi:a', 0, true],
    ]);
    const again = await stores.reopen(store);
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
    const { store, sessionId } = await storeWithTurn(stores);
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
    const { store, sessionId } = await storeWithTurn(stores);
    const rounds = 6;
    for (let round = 2; round <= rounds; round += 1) {
      for (const message of completeToolTurn(`turn-${round}`)) await store.appendMessage(sessionId, message);
    }
    const other = await stores.peer(store);
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
}
