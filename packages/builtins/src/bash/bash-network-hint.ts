import type { SandboxPolicy } from '@openwork/sandbox';

/**
 * The words of a failed name lookup or connection: Node (`ENOTFOUND`, `EAI_AGAIN`, `ECONNREFUSED`,
 * `ENETUNREACH`, `getaddrinfo`), curl, wget, git, glibc, bash's `/dev/tcp`, Python (`Errno -3`,
 * `Failed to establish a new connection`), Go (`dial tcp`), pip and cargo.
 */
const NETWORK_FAILURE =
  /\b(?:ENOTFOUND|EAI_AGAIN|EAI_NONAME|ECONNREFUSED|ENETUNREACH|EHOSTUNREACH)\b|getaddrinfo|Could not resolve (?:host|proxy)|Temporary failure in name resolution|Name or service not known|Network is unreachable|No address associated with hostname|Failed to establish a new connection|dial tcp|Connection refused|unable to access '[^']*': Could not|spurious network error|failed to connect to/i;

/** The note of a `network: 'none'` session, shown once per result after the status line. */
export const NO_NETWORK_NOTE =
  "[network: none] This session's commands have no network: the host turned it off (network: 'none', openwork --network none). The lookup or connection above failed because of that, not because of the command; work offline (local files, an offline cache, --offline) or ask the user to allow the network.";

/** The note of a command that timed out in a session without network. */
export const NO_NETWORK_TIMEOUT_NOTE =
  "[network: none] This session's commands have no network (network: 'none'): if the command downloads anything, that is what it waited for; more time does not help.";

/**
 * What to say after the status line of a call whose session has no network (docs/decisions/0101):
 * for a command that failed with the words of a failed lookup or connection, or that timed out.
 * Under `network: 'allow'` nothing — no text ever claims a restriction that is not there (§7.9).
 */
export function bashNetworkNote(policy: SandboxPolicy, outcome: { readonly exitCode?: number | null; readonly output: string; readonly timedOut: boolean }): string | undefined {
  if (policy.network !== 'none') return undefined;
  if (outcome.timedOut) return NO_NETWORK_TIMEOUT_NOTE;
  if (outcome.exitCode === 0 || outcome.exitCode === undefined) return undefined;
  return NETWORK_FAILURE.test(outcome.output) ? NO_NETWORK_NOTE : undefined;
}
