import { CallInspection, type CallFacts } from '@openwork/tools-contract';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { escalationRequest, type EscalationInput } from '../escalation/escalation-parameters.js';
import { analyzeBashCommand } from './dangerous-command-gate.js';

/**
 * §6.1 for bash: `runs(command)` with the command as the model wrote it; `danger` — the
 * dangerous-command analysis of `analyzeCommand` (architecture §3.6), present when it found
 * something — only while the sandbox is available (when it is not, bash runs nothing and there is
 * nothing to approve); `escalation` when the call asks for extra paths. prepare does not guess
 * what the command will read or write: the kernel decides that while it runs (§6.1).
 */
export function inspectBash(command: string, input: EscalationInput & { readonly description?: string | undefined }, session: ToolSessionContext): CallInspection {
  // The model's words for the person go on the approval card with the command.
  const facts: { danger?: unknown; escalation?: unknown; description?: string } = input.description === undefined ? {} : { description: input.description };
  if (session.knownSandboxAvailability()?.available !== false) {
    // The command's own HOME: what `~` and `$HOME` will be when it runs.
    const analysis = analyzeBashCommand(command, session);
    if (analysis.dangerous) facts.danger = analysis;
  }
  const escalation = escalationRequest(input, session);
  if (escalation !== undefined) facts.escalation = escalation;
  return CallInspection.runs(command, facts as CallFacts);
}
