import type { ToolSessionContext } from '@openwork/builtins';
import type { SandboxPolicy } from '@openwork/sandbox';
import { closestName, ToolResult, type FinalizedToolset, type PreparedCall, type ToolId } from '@openwork/tools-contract';
import { deepFreeze } from '../shared/deep-freeze.js';
import type { ApprovalCard, ApprovalReason } from './approval.js';
import type { CallPreparation } from './call-preparation.js';
import { readDanger, readEscalation, type DangerFact, type EscalationFact } from './read-call-facts.js';

/**
 * Architecture §4, per call, before anything runs — one step per rule:
 * 1. `prepare` validates and inspects (§6.1); an unknown tool or a bad input is the result.
 * 2. A hard-protected write target is denied without asking: no approval can unlock tier 1; a
 *    call the tool reports will fail anyway (`refusal`) is that failure, without asking.
 * 3. A grant that asks to write a hard-protected path is denied the same way.
 * 4. An escalation or a dangerous command needs the user's approval.
 * 5. Otherwise the call is ready.
 */
export function prepareToolCall(
  toolset: FinalizedToolset<ToolSessionContext, SandboxPolicy>,
  context: ToolSessionContext,
  toolId: ToolId,
  input: unknown,
  controlIds: readonly ToolId[] = [],
): CallPreparation {
  const prepared = toolset.prepare(toolId, input);
  if (!prepared.ok) return { status: 'rejected', result: notFoundAmongAll(prepared.result, toolId, [...toolset.toolIds, ...controlIds]) };
  const call = prepared.call;

  const protectedTarget = denyProtectedTarget(call);
  if (protectedTarget !== undefined) return { status: 'denied', call, result: protectedTarget };
  // A call the tool knows will fail (an edit of an unread file) is not put to a person.
  const refusal = call.inspection.refusal;
  if (typeof refusal === 'string' && refusal !== '') return { status: 'rejected', result: ToolResult.failure({ code: 'execution_failed', message: refusal }) };

  const escalation = readEscalation(call.inspection);
  if (escalation.kind === 'malformed') return { status: 'rejected', result: malformedFact(toolId, escalation.problem) };
  const protectedGrant = escalation.kind === 'present' ? denyProtectedGrant(escalation.value, context) : undefined;
  if (protectedGrant !== undefined) return { status: 'denied', call, result: protectedGrant };

  const danger = readDanger(call.inspection);
  const card = approvalCard(call, escalation.kind === 'present' ? escalation.value : undefined, danger.kind === 'present' ? danger.value : undefined);
  if (card !== undefined) {
    return { status: 'needs_approval', call, card, grants: card.paths };
  }
  return { status: 'ready', call };
}

/**
 * The toolset names only its own tools when one is not found; the model is offered core's control
 * tools too (`update_plan`, the sub-agent tools), so the list and the suggestion cover all of them.
 */
function notFoundAmongAll(result: ToolResult, toolId: ToolId, allIds: readonly ToolId[]): ToolResult {
  if (result.error?.code !== 'tool_not_found') return result;
  const name = String(toolId);
  const closest = name.length > 200 ? undefined : closestName(name, allIds);
  const quoted = JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
  return ToolResult.failure({
    code: 'tool_not_found',
    message: `Tool ${quoted} is not available in this toolset.${closest === undefined ? '' : ` Did you mean ${closest}?`} Available tools: ${allIds.length === 0 ? 'none' : allIds.join(', ')}. Call one of those instead.`,
  });
}

/** Step 2 (§6.1 `protected_target`): the rule's own denial text, `sandboxDenied: false` (§6.2). */
function denyProtectedTarget(call: PreparedCall): ToolResult | undefined {
  const text = call.inspection.protectedTarget;
  if (typeof text !== 'string' || text === '') return undefined;
  return ToolResult.failure({ code: 'permission_denied', message: text });
}

/** Step 3 (architecture §3.3: a grant never unlocks tier 1): asking the user could not help. */
function denyProtectedGrant(escalation: EscalationFact, context: ToolSessionContext): ToolResult | undefined {
  for (const grant of escalation.paths) {
    if (grant.access !== 'write') continue;
    const text = context.protectedTarget(grant.path);
    if (text !== undefined) return ToolResult.failure({ code: 'permission_denied', message: text });
  }
  return undefined;
}

/** Step 4: the card, when there is something to ask. */
function approvalCard(call: PreparedCall, escalation: EscalationFact | undefined, danger: DangerFact | undefined): ApprovalCard | undefined {
  const reasons: ApprovalReason[] = [];
  if (escalation !== undefined) reasons.push('escalation');
  if (danger !== undefined) reasons.push('danger');
  if (reasons.length === 0) return undefined;
  const inspection = call.inspection;
  return deepFreeze({
    toolId: call.toolId,
    reasons,
    ...(inspection.kind === 'runs' ? { command: inspection.command } : {}),
    ...(typeof inspection['description'] === 'string' ? { description: inspection['description'] } : {}),
    ...(inspection.kind === 'writes' ? { target: inspection.target } : {}),
    paths: escalation?.paths ?? [],
    ...(escalation === undefined ? {} : { justification: escalation.justification }),
    ...(danger === undefined ? {} : { danger: { reason: danger.findings.map((finding) => finding.reason).join('\n'), findings: danger.findings } }),
  });
}

function malformedFact(toolId: ToolId, problem: string): ToolResult {
  return ToolResult.failure({
    code: 'execution_failed',
    message: `${toolId} could not be checked before running (${problem}), so it was not run. This is a bug of the tool, not of the arguments.`,
  });
}
