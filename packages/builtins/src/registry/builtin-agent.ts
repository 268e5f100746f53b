import type { ToolId } from '@openwork/tools-contract';

/** The agent roles of §3 whose toolsets come from the built-in registry. */
export type BuiltinAgent = 'default' | 'explorer';

/**
 * §3 table (architecture §4): the tools of each role, in the order the model sees them — the
 * spec's seven in §3 order, then the background tools after bash. Core adds
 * `conversation_history` to the default agent's toolset itself.
 */
export const BUILTIN_AGENT_TOOLS: Readonly<Record<BuiltinAgent, readonly ToolId[]>> = Object.freeze({
  default: Object.freeze(['read', 'write', 'edit', 'grep', 'glob', 'list', 'bash', 'bash_output', 'bash_input', 'bash_kill']),
  // Background bash: the explorer's background tools reach only the tasks its own calls started
  // (`ToolSessionContext.agentRole`): it reads, types into and stops those, never another agent's.
  explorer: Object.freeze(['read', 'grep', 'glob', 'list', 'bash', 'bash_output', 'bash_input', 'bash_kill']),
});
