import type { SessionStore } from '../session-store.js';
import type { StoreClock } from '../store-clock.js';

/** What the contract suite hands a store factory: the clock the store must use for its timestamps. */
export interface ContractStoreOptions {
  readonly now: StoreClock;
}

/**
 * How the contract suite gets stores of one implementation. Each test calls `create` for a new,
 * empty store; the suite closes every store it was given after the test, then calls `cleanup`.
 */
export interface SessionStoreContractHarness {
  /** A new store over new, empty data. */
  create(options: ContractStoreOptions): Promise<SessionStore>;
  /**
   * Another handle on the same data, as a second process or host would open it: a second
   * database connection or pool. A store that has no such thing returns `store` itself.
   */
  openPeer(store: SessionStore, options: ContractStoreOptions): Promise<SessionStore>;
  /**
   * Closes `store` and opens its data again from where it lives (the file, the server), so that
   * tests prove what survives a restart. A store with nowhere to reopen from returns `store`.
   */
  reopen(store: SessionStore, options: ContractStoreOptions): Promise<SessionStore>;
  /** Removes what `create` made (temp files, schemas). Runs after each test. */
  cleanup?(): Promise<void>;
}
