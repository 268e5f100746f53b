import { renderApprovalCard, type Session } from '@openwork/core';

/** The part of the SDK's `tool-approval-request` the text is made from (`part.toolCall`). */
export interface ApprovalToolCall {
  readonly toolName: string;
  readonly input: unknown;
}

/**
 * What to show your user for a `tool-approval-request` (architecture §3.9): core's approval card
 * for `toolCall` — the tool, the command or target, the paths asked for, the justification and why
 * a command is dangerous — with every control and bidirectional character of the model's text made
 * visible (`\x1b`, `\r`, `\u202e` …), so the text cannot say something other than what the call
 * does. `undefined` when the call needs no approval (the SDK then sends no request for it).
 */
export function approvalText(session: Session, toolCall: ApprovalToolCall): string | undefined {
  const preparation = session.prepare(toolCall.toolName, toolCall.input);
  return preparation.status === 'needs_approval' ? renderApprovalCard(preparation.card) : undefined;
}
