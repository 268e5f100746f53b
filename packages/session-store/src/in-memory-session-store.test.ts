import { describeSessionStoreContract } from './contract/index.js';
import { InMemorySessionStore } from './index.js';

describeSessionStoreContract('in memory', {
  create: async ({ now }) => new InMemorySessionStore({ now }),
  openPeer: async (store) => store,
  reopen: async (store) => store,
});
