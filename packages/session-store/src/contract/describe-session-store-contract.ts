import { afterEach, describe, it } from 'vitest';
import type { SessionStore } from '../session-store.js';
import type { StoreClock } from '../store-clock.js';
import { describeAgentRunContract } from './describe-agent-runs-contract.js';
import { describeBackgroundTaskContract } from './describe-background-tasks-contract.js';
import type { SessionStoreContractHarness } from './session-store-contract-harness.js';
import { describeFileChangesContract } from './describe-file-changes-contract.js';
import { describeLifecycleContract } from './describe-lifecycle-contract.js';
import { describeMessagesContract } from './describe-messages-contract.js';
import { describePlansContract } from './describe-plans-contract.js';
import { describeSessionsContract } from './describe-sessions-contract.js';

/** Options of `describeSessionStoreContract`. */
export interface SessionStoreContractOptions {
  /** When set, the suite is reported as skipped with this reason (e.g. no database configured). */
  readonly skip?: string;
  /** Writers in the concurrent-append test (8 by default) and messages each writes (25). */
  readonly concurrentWriters?: number;
  readonly messagesPerWriter?: number;
}

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

    const stores = { create, peer, reopen };
    describeSessionsContract(stores);
    describeMessagesContract(stores);
    describeFileChangesContract(stores);
    describeLifecycleContract(stores, { writers, perWriter });
    describeAgentRunContract(stores);
    describePlansContract(stores);
    describeBackgroundTaskContract(stores);
  });
}
