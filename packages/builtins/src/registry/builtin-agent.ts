import type { ToolId } from '@openwork/tools-contract';

/** The agent roles of §3 whose toolsets come from the built-in registry. */
export type BuiltinAgent = 'default' | 'explorer';

/**
 * §3 table (architecture §4): the tools of each role, in the order the model sees them. Core adds
 * `conversation_history` to the default agent's toolset itself.
 */
export const BUILTIN_AGENT_TOOLS: Readonly<Record<BuiltinAgent, readonly ToolId[]>> = Object.freeze({
  default: Object.freeze(['read', 'write', 'edit', 'grep', 'glob', 'list', 'bash']),
  explorer: Object.freeze(['read', 'grep', 'glob', 'list', 'bash']),
});
