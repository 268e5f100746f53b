import type { SandboxPolicy } from '@openwork/sandbox';
import { ToolExecutionError } from '@openwork/tools-contract';

/**
 * The policy stamped on this call (§5), checked for shape. A host that forgot to stamp one gets a
 * failed result and nothing is touched: the fence never falls back to a default (fail closed).
 */
export function requireCallPolicy(policy: unknown, tool: string): SandboxPolicy | ToolExecutionError {
  const candidate = policy as Partial<SandboxPolicy> | null | undefined;
  if (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.mode === 'string' &&
    Array.isArray(candidate.workspaceRoots) &&
    Array.isArray(candidate.grants) &&
    typeof candidate.openworkHome === 'string'
  ) {
    return candidate as SandboxPolicy;
  }
  return new ToolExecutionError(
    'execution_failed',
    `${tool} cannot run: no sandbox policy was stamped on this call. The host must pass call.sandboxPolicy (a SandboxPolicy from @openwork/sandbox); nothing was read or changed.`,
  );
}
