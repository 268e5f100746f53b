import { CallInspection, type CallFacts } from '@openwork/tools-contract';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { escalationRequest, type EscalationInput } from './escalation-parameters.js';

/**
 * §6.1 for write and edit: `writes(target)` with the model's path, `protectedTarget` when the
 * target is hard-protected (core denies without running), and `escalation` when the call asks for
 * extra paths.
 */
export function inspectWrite(target: string, input: EscalationInput, session: ToolSessionContext): CallInspection {
  const facts: { protectedTarget?: string; escalation?: unknown } = {};
  const protectedTarget = session.protectedTarget(target);
  if (protectedTarget !== undefined) facts.protectedTarget = protectedTarget;
  const escalation = escalationRequest(input, session);
  if (escalation !== undefined) facts.escalation = escalation;
  return CallInspection.writes(target, facts as CallFacts);
}
