import { builtinRegistry, type ToolSessionContext } from '@openwork/builtins';
import type { SandboxPolicy } from '@openwork/sandbox';
import type { FinalizedToolset } from '@openwork/tools-contract';
import { conversationHistoryTool, type ConversationSource } from '../history/conversation-history-tool.js';
import { agentRoleTools, type AgentRole } from './agent-role.js';

/** What a session's toolset is built from. */
export interface SessionToolsetParts {
  readonly context: ToolSessionContext;
  readonly role: AgentRole;
  /** The runtime's self-check result (§7.5, acceptance 10f). */
  readonly escalationAvailable: boolean;
  readonly history: ConversationSource;
}

/**
 * The toolset of one session and role (§3): builtins' registry plus core's
 * `conversation_history`, finalized with the role's selection over the session's context — its
 * observation table and spill directory, the same ones whenever the toolset is rebuilt (§4) — and
 * with the escalation parameters only when the kernel sandbox works.
 */
export function buildSessionToolset(parts: SessionToolsetParts): FinalizedToolset<ToolSessionContext, SandboxPolicy> {
  const registry = builtinRegistry().register(conversationHistoryTool(parts.history));
  const spill = parts.context.spill?.sink();
  return registry.finalize({ tools: [...agentRoleTools(parts.role)] }, parts.context, {
    escalationAvailable: parts.escalationAvailable,
    ...(spill === undefined ? {} : { spill }),
  });
}
