// The public surface of @openwork/sandbox/testing: what a team needs to check its own enforcer (a
// SandboxBackend of its own, a remote file system's fence) against the policy, as our parity tests
// do (architecture §3.4). Kept off the main entry: it writes fixture trees and is not runtime API.
export { buildParityCorpus } from './policy/parity-corpus.js';
export type { ParityCorpus, ParityCorpusEntry, ParityCorpusVariant, ParityGrantSet, ParityPolicySettings } from './policy/parity-corpus.js';
