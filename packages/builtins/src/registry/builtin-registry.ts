import type { SandboxPolicy } from '@openwork/sandbox';
import { ToolRegistryBuilder, type FinalizedToolset, type ToolsetConfig } from '@openwork/tools-contract';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { BUILTIN_AGENT_TOOLS, type BuiltinAgent } from './builtin-agent.js';
import { builtinTools } from './builtin-tools.js';

/**
 * §3 `builtin_registry()`: a registry with every built-in tool, registered once each in the
 * fixed order of `builtinTools()`. Hosts may register their own tools on it before finalizing.
 */
export function builtinRegistry(): ToolRegistryBuilder<ToolSessionContext, SandboxPolicy> {
  const registry = new ToolRegistryBuilder<ToolSessionContext, SandboxPolicy>();
  for (const tool of builtinTools()) registry.register(tool);
  return registry;
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
  const escalationAvailable = options.escalationAvailable ?? (await session.sandboxAvailability()).available;
  const spill = session.spill?.sink();
  return builtinRegistry().finalize(builtinToolsetConfig(options.agent ?? 'default'), session, {
    escalationAvailable,
    ...(spill === undefined ? {} : { spill }),
  });
}
