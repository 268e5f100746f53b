import { describeSessionStoreContract } from '@openwork/session-store/contract';
import type { SessionStore } from '@openwork/session-store';
import { SqliteSessionStore } from './index.js';
import { createTemporaryDirectory } from './test-support/temporary-directory.js';

const directories: { remove(): Promise<void> }[] = [];

/** The contract on a real file: peers are second connections, reopen closes and opens the file again. */
describeSessionStoreContract('SQLite file', {
  async create({ now }) {
    const directory = await createTemporaryDirectory();
    directories.push(directory);
    return SqliteSessionStore.open({ openworkHome: directory.path, now });
  },
  async openPeer(store: SessionStore, { now }) {
    return SqliteSessionStore.open({ path: (store as SqliteSessionStore).path, now });
  },
  async reopen(store: SessionStore, { now }) {
    await store.close();
    return SqliteSessionStore.open({ path: (store as SqliteSessionStore).path, now });
  },
  async cleanup() {
    for (const directory of directories.splice(0)) await directory.remove();
  },
});
