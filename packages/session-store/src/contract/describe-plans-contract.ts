import { describe, expect, it } from 'vitest';
import { SessionNotFoundError } from '../session-not-found-error.js';
import type { SessionStore } from '../session-store.js';
import { ROOT, type ContractStores } from './contract-stores.js';

/**
 * Plans (`update_plan`, architecture §4): the last plan of a session, bounded. Part of the one
 * `SessionStore` contract suite, run unchanged against every store.
 */
export function describePlansContract(stores: ContractStores): void {
  async function parentIn(store: SessionStore, id = 'parent'): Promise<string> {
    return (await store.createSession({ id, workspaceRoots: [ROOT] })).id;
  }

  describe('plans', () => {
    it('update_plan: keeps the last plan with its session across a reopen', async () => {
      const store = await stores.create();
      const session = await parentIn(store);
      expect(await store.getPlan(session)).toBeUndefined();
      await store.setPlan(session, { plan: [{ step: 'read the code', status: 'in_progress' }] });
      const plan = await store.setPlan(session, {
        explanation: 'found the bug',
        plan: [
          { step: 'read the code', status: 'completed' },
          { step: 'fix the parser', status: 'in_progress' },
          { step: 'run the tests', status: 'pending' },
        ],
      });
      expect(plan).toMatchObject({ sessionId: session, explanation: 'found the bug' });
      const again = await stores.reopen(store);
      expect(await again.getPlan(session)).toStrictEqual(plan);
    });

    it('update_plan: refuses more than 50 steps or two in progress, and keeps the stored plan', async () => {
      const store = await stores.create();
      const session = await parentIn(store);
      const kept = await store.setPlan(session, { plan: [{ step: 'one', status: 'pending' }] });
      const many = Array.from({ length: 51 }, (_, index) => ({ step: `step ${index}`, status: 'pending' as const }));
      await expect(store.setPlan(session, { plan: many })).rejects.toThrow(/51 steps; at most 50/);
      await expect(
        store.setPlan(session, { plan: [{ step: 'a', status: 'in_progress' }, { step: 'b', status: 'in_progress' }] }),
      ).rejects.toThrow(/at most one step may be in_progress/);
      await expect(store.setPlan(session, { plan: [{ step: 'a', status: 'done' as never }] })).rejects.toThrow(/pending, in_progress or completed/);
      await expect(store.setPlan('nobody', { plan: [] })).rejects.toSatisfy((error: unknown) => SessionNotFoundError.isInstance(error));
      expect(await store.getPlan(session)).toStrictEqual(kept);
    });
  });
}
