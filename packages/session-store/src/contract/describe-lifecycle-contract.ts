import { describe, expect, it } from 'vitest';
import { SessionStoreError } from '../session-store-error.js';
import { StoreClosedError } from '../store-closed-error.js';
import { ROOT, type ContractStores } from './contract-stores.js';

/**
 * Concurrent writers on one session, and every call after close Part of the one
 * `SessionStore` contract suite, run unchanged against every store.
 */
export function describeLifecycleContract(stores: ContractStores, load: { writers: number; perWriter: number }): void {
  describe('concurrency', () => {
    it(`${load.writers} writers on one session keep every message exactly once and in order`, async () => {
      const store = await stores.create();
      await store.createSession({ id: 'busy', workspaceRoots: [ROOT] });
      const handles = [store];
      for (let index = 1; index < load.writers; index += 1) handles.push(await stores.peer(store));
      await Promise.all(
        handles.map(async (handle, writer) => {
          for (let index = 0; index < load.perWriter; index += 1) {
            await handle.appendMessage('busy', { id: `w${writer}-m${index}`, role: 'user', text: `writer ${writer} message ${index}` });
          }
        }),
      );
      const messages = await store.loadMessages('busy');
      expect(messages.map((message) => message.sequence)).toEqual(Array.from({ length: load.writers * load.perWriter }, (_, index) => index + 1));
      expect(new Set(messages.map((message) => message.id)).size).toBe(load.writers * load.perWriter);
      for (let writer = 0; writer < load.writers; writer += 1) {
        const own = messages.filter((message) => message.id.startsWith(`w${writer}-`)).map((message) => message.id);
        expect(own).toEqual(Array.from({ length: load.perWriter }, (_, index) => `w${writer}-m${index}`));
      }
      expect((await store.getSession('busy'))?.messageCount).toBe(load.writers * load.perWriter);
    });
  });

  describe('lifecycle and errors', () => {
    it('refuses every call after close with StoreClosedError; closing twice is harmless', async () => {
      const store = await stores.create();
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
}
