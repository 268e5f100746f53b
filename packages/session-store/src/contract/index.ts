// The contract suite of @openwork/session-store: `import { describeSessionStoreContract } from
// '@openwork/session-store/contract'` in a test file of a store. Needs vitest (a peer dependency
// of this subpath only; the main entry never loads it).

export { describeSessionStoreContract, type SessionStoreContractOptions } from './describe-session-store-contract.js';
export type { ContractStoreOptions, SessionStoreContractHarness } from './session-store-contract-harness.js';
export { completeToolTurn } from './complete-tool-turn.js';
