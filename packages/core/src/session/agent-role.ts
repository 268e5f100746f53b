import { builtinToolsetConfig, type BuiltinAgent } from '@openwork/builtins';
import type { ToolId } from '@openwork/tools-contract';
import { CONVERSATION_HISTORY_TOOL_ID } from '../history/conversation-history-tool.js';

/** The agent roles of §3 (architecture §4): `default` and the `explorer` sub-agent. */
export type AgentRole = BuiltinAgent;

/** Every `AgentRole`; `default` is the default. */
export const AGENT_ROLES: readonly AgentRole[] = Object.freeze(['default', 'explorer']);

/** Whether `value` names an agent role. */
export function isAgentRole(value: unknown): value is AgentRole {
  return typeof value === 'string' && (AGENT_ROLES as readonly string[]).includes(value);
}

/**
 * The tools a role sees, in order (§3): the role's built-in tools as builtins' `BUILTIN_AGENT_TOOLS`
 * lists them — limited to the tools the installed builtins provide, so new ones appear as they
 * land — and, for `default`, core's `conversation_history` after them. `explorer` gets no tool
 * that changes files and no conversation history.
 */
export function agentRoleTools(role: AgentRole): readonly ToolId[] {
  const builtins = builtinToolsetConfig(role).tools;
  return Object.freeze(role === 'default' ? [...builtins, CONVERSATION_HISTORY_TOOL_ID] : [...builtins]);
}
