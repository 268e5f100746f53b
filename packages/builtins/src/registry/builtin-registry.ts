import type { SandboxPolicy } from '@openwork/sandbox';
import { ToolRegistryBuilder, type FinalizedToolset, type ToolsetConfig } from '@openwork/tools-contract';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { BUILTIN_AGENT_TOOLS, type BuiltinAgent } from './builtin-agent.js';
import { builtinTools, type BuiltinTool } from './builtin-tools.js';

/**
 * §3 `builtin_registry()`: a registry with every built-in tool, registered once each in the
 * fixed order of `builtinTools()`. Hosts may register their own tools on it before finalizing.
 */
export function builtinRegistry(): ToolRegistryBuilder<ToolSessionContext, SandboxPolicy> {
  return registryOf(builtinTools());
}

function registryOf(tools: readonly BuiltinTool[]): ToolRegistryBuilder<ToolSessionContext, SandboxPolicy> {
  const registry = new ToolRegistryBuilder<ToolSessionContext, SandboxPolicy>();
  for (const tool of tools) registry.register(tool);
  return registry;
}

/**
 * The built-in tools with bash's description saying, when the kernel sandbox is unavailable, that
 * every call will fail and why (`tools/list` offered bash as if it worked), so a model
 * and a person reading the definitions learn it before the first call.
 */
function toolsFor(availability: { readonly available: boolean; readonly reason?: string }): readonly BuiltinTool[] {
  if (availability.available) return builtinTools();
  const note = `\n\nUnavailable on this machine: the kernel sandbox does not work here (${availability.reason ?? 'its self-check failed'}), so every bash call fails with sandbox_unavailable and runs nothing. Use the other tools.`;
  return builtinTools().map((tool) => (tool.id === 'bash' ? ({ ...tool, description: `${tool.description}${note}` } as BuiltinTool) : tool));
}

/**
 * The `ToolsetConfig` of a role (§3): its tools in the role's order, limited to the built-in
 * tools this version of the package provides.
 */
export function builtinToolsetConfig(agent: BuiltinAgent): ToolsetConfig {
  const provided = new Set(builtinTools().map((tool) => tool.id));
  return { tools: BUILTIN_AGENT_TOOLS[agent].filter((id) => provided.has(id)) };
}

/** How `finalizeBuiltinToolset` builds a toolset. */
export interface FinalizeBuiltinToolsetOptions {
  /** Default `default`. */
  readonly agent?: BuiltinAgent;
  /**
   * Whether the escalation parameters exist (§7.5, acceptance 10f). Default: the sandbox
   * backend's self-check (`session.sandboxAvailability()`), so an unavailable sandbox removes them.
   */
  readonly escalationAvailable?: boolean;
}

/**
 * The toolset of one agent role over `session`: `builtinRegistry().finalize(...)` with the
 * role's selection, the session's spill directory as the fallback cut's sink (§8.2), and the
 * escalation parameters only when the kernel sandbox works.
 */
export async function finalizeBuiltinToolset(
  session: ToolSessionContext,
  options: FinalizeBuiltinToolsetOptions = {},
): Promise<FinalizedToolset<ToolSessionContext, SandboxPolicy>> {
  const availability = await session.sandboxAvailability();
  const escalationAvailable = options.escalationAvailable ?? availability.available;
  const spill = session.spill?.sink();
  return registryOf(toolsFor(availability)).finalize(builtinToolsetConfig(options.agent ?? 'default'), session, {
    escalationAvailable,
    ...(spill === undefined ? {} : { spill }),
  });
}
