import type { SandboxPolicy } from '@openwork/sandbox';
import { ToolRegistryBuilder, type FinalizedToolset, type SpillSink } from '@openwork/tools-contract';
import { AGENT_AWAIT_TOOL_ID, AGENT_LIST_TOOL_ID, AGENT_SEND_TOOL_ID, agentAwaitTool, agentListTool, agentSendTool } from '../agents/agent-tools.js';
import type { ControlContext } from './control-context.js';
import { UPDATE_PLAN_TOOL_ID, updatePlanTool } from './update-plan-tool.js';

/**
 * Core's control tools of a session (spec §3), in their own toolset after the role's: they act on
 * the session (its plan, its children), never on files or processes, so no sandbox policy applies.
 * `update_plan` always; `agent_send`, `agent_await` and `agent_list` only when the session may
 * delegate (`context.agents`). The same contract as the role's tools: a zod schema, a JSON Schema
 * definition, `invalid_arguments` for bad input, results cut at 32,000 bytes with the whole in
 * the session's spill folder.
 */
export function buildControlToolset(context: ControlContext, spill: SpillSink | undefined): FinalizedToolset<ControlContext, SandboxPolicy> {
  const registry = new ToolRegistryBuilder<ControlContext, SandboxPolicy>()
    .register(updatePlanTool())
    .register(agentSendTool())
    .register(agentAwaitTool())
    .register(agentListTool());
  const tools = context.agents === undefined ? [UPDATE_PLAN_TOOL_ID] : [UPDATE_PLAN_TOOL_ID, AGENT_SEND_TOOL_ID, AGENT_AWAIT_TOOL_ID, AGENT_LIST_TOOL_ID];
  return registry.finalize({ tools }, context, { escalationAvailable: false, ...(spill === undefined ? {} : { spill }) });
}
