import { ToolResult } from '@openwork/tools-contract';
import { ABORTED, untilAborted } from '../shared/until-aborted.js';
import type { ApprovalCard, ApprovalContext, ApprovalDecision, Approver } from './approval.js';

/** What asking the user came to. */
export type ApprovalOutcome =
  | { readonly approved: true }
  /** The model gets `result` (`denied`, or `cancelled` when the call was cancelled while asking). */
  | { readonly approved: false; readonly result: ToolResult };

/**
 * Architecture §4: asks `approver` about one call. No approver, a refusal, a throw, a rejection or
 * an answer that is neither `true` nor `{ approved: true }` all mean no: a `denied` result whose
 * text tells the model what happened and not to repeat the call unchanged. A call cancelled while
 * waiting stops waiting and is `cancelled`.
 */
export async function askApprover(approver: Approver | undefined, card: ApprovalCard, context: ApprovalContext): Promise<ApprovalOutcome> {
  const why = describeNeed(card);
  if (approver === undefined) {
    return denied(`This call needs the user's approval (${why}), but no one can approve calls in this session, so it was not run. Continue without it, or ask the user to do it.`);
  }
  if (context.signal.aborted) return cancelledWhileAsking();
  let answer: unknown;
  try {
    answer = await untilAborted(Promise.resolve(approver(card, context)), context.signal);
  } catch (error) {
    if (error === ABORTED) return cancelledWhileAsking();
    return denied(`Asking the user to approve this call (${why}) failed (${error instanceof Error ? error.message : String(error)}), so it was not run.`);
  }
  if (answer === true || (isDecision(answer) && answer.approved === true)) return { approved: true };
  // Here a well-formed answer is a refusal; only a refusal's reason is passed on.
  const given = isDecision(answer) ? (answer as { reason?: unknown }).reason : undefined;
  // The reason is a sentence of its own; its closing period would double the one after it.
  const sentence = typeof given === 'string' ? given.trim().replace(/[.!]+$/u, '') : '';
  const reason = sentence !== '' ? `: ${sentence}` : '';
  return denied(`The user did not approve this call (${why})${reason}. Nothing was run. Do not repeat the same call; continue another way or ask the user.`);
}

/** What the call needs approval for, in one phrase. */
function describeNeed(card: ApprovalCard): string {
  const needs: string[] = [];
  if (card.paths.length > 0) {
    needs.push(`access to ${card.paths.map((grant) => `${grant.path} (${grant.access}, ${grant.scope})`).join(', ')}`);
  }
  if (card.danger !== undefined) {
    const first = card.danger.findings[0];
    needs.push(`a dangerous command${first === undefined ? '' : `: ${first.reason}`}`);
  }
  return needs.join('; ');
}

function denied(message: string): ApprovalOutcome {
  return { approved: false, result: ToolResult.failure({ code: 'permission_denied', message }) };
}

function cancelledWhileAsking(): ApprovalOutcome {
  return {
    approved: false,
    result: ToolResult.failure({ code: 'cancelled', message: 'The call was cancelled while waiting for the user\'s approval. Nothing was run.' }),
  };
}

function isDecision(value: unknown): value is ApprovalDecision {
  return typeof value === 'object' && value !== null && typeof (value as { approved?: unknown }).approved === 'boolean';
}
