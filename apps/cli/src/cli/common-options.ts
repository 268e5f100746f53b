import type { OptionSpec } from './parse-arguments.js';

/** Session modes (architecture §3.1). */
export const MODES = ['read-only', 'workspace-write', 'full-access'] as const;
/** Agent roles (architecture §4). */
export const AGENTS = ['default', 'explorer'] as const;

export const WORKSPACE_OPTION: OptionSpec = { name: 'workspace', kind: 'value', repeatable: true };
export const MODE_OPTION: OptionSpec = { name: 'mode', kind: 'value', choices: MODES };
export const AGENT_OPTION: OptionSpec = { name: 'agent', kind: 'value', choices: AGENTS };
export const JSON_OPTION: OptionSpec = { name: 'json', kind: 'flag' };
export const DATABASE_OPTION: OptionSpec = { name: 'database', kind: 'value' };
export const APPROVE_OPTION: OptionSpec = { name: 'approve', kind: 'flag' };
export const SESSION_OPTION: OptionSpec = { name: 'session', kind: 'value' };
/** Whether commands reach the network (docs/decisions/0101-network-switch.md). */
export const NETWORK_CHOICES = ['allow', 'none'] as const;
export const NETWORK_OPTION: OptionSpec = { name: 'network', kind: 'value', choices: NETWORK_CHOICES };

/** Help lines shared by the commands that open a session. */
export const SESSION_OPTION_HELP: readonly string[] = [
  '  --workspace DIR   workspace root (repeatable; the first is the working directory). Default: the current directory',
  '  --mode M          read-only | workspace-write (default) | full-access',
  '  --database URL    PostgreSQL store (default: OPENWORK_DATABASE_URL, else SQLite in the OpenWork home)',
  '  --network N       allow (default): commands reach the network as unsandboxed | none: no network at all',
];
export const CONTINUE_SESSION_HELP =
  '  --session ID      continue a stored session (its roots, mode and what it has read), e.g. the id the last call printed';
export const APPROVE_HELP = '  --approve         approve escalations and dangerous commands without a terminal (never unlocks protected paths)';
