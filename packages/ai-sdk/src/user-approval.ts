import type { ApprovalDecision } from '@openwork/core';

/** The fields of a `ModelMessage` this check reads (the same in `ai` 6 and 7). */
export interface ApprovalHistoryMessage {
  readonly role: string;
  readonly content: unknown;
}

/** The call `execute` was asked to run. */
export interface ApprovalCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
}

/** Why a call that core wants approved runs into a `denied` result: the model reads it. */
export const NO_USER_APPROVAL_REASON =
  'the host ran this call without the user approving it (no tool-approval-response approved it); ask again and wait for the answer';

/**
 * The user's answer for one call that core wants approved (architecture §4, §3.3), read from the
 * messages the SDK hands `execute`. `ai` 7's `generateText({ toolApproval })` takes precedence over
 * the tool's `needsApproval`: a host whose `toolApproval` answers `approved` or `not-applicable`
 * makes the SDK run the call without asking anyone. Only a person's `tool-approval-response`
 * approves it, so escalations never widen without one. The steps:
 * 1. find the last assistant message that asked for approval of this `toolCallId`;
 * 2. the call it asked about must be this call: same tool and the same input (a model that reuses
 *    ids must not inherit an old approval for another call);
 * 3. a later tool message must answer that request's `approvalId` with `approved: true`.
 */
export function userApproval(messages: readonly ApprovalHistoryMessage[], call: ApprovalCall): ApprovalDecision {
  const request = lastApprovalRequest(messages, call.toolCallId);
  if (request === undefined || !sameCall(request.toolCall, call)) return { approved: false, reason: NO_USER_APPROVAL_REASON };
  const response = messages
    .slice(request.index + 1)
    .filter((message) => message.role === 'tool')
    .flatMap((message) => partsOf(message))
    .find((part) => part['type'] === 'tool-approval-response' && part['approvalId'] === request.approvalId);
  if (response?.['approved'] === true) return { approved: true };
  return { approved: false, reason: NO_USER_APPROVAL_REASON };
}

interface ApprovalRequest {
  readonly index: number;
  readonly approvalId: unknown;
  readonly toolCall: Record<string, unknown> | undefined;
}

function lastApprovalRequest(messages: readonly ApprovalHistoryMessage[], toolCallId: string): ApprovalRequest | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'assistant') continue;
    const parts = partsOf(message);
    const request = parts.find((part) => part['type'] === 'tool-approval-request' && part['toolCallId'] === toolCallId);
    if (request === undefined) continue;
    const toolCall = parts.find((part) => part['type'] === 'tool-call' && part['toolCallId'] === toolCallId);
    return { index, approvalId: request['approvalId'], toolCall };
  }
  return undefined;
}

function sameCall(asked: Record<string, unknown> | undefined, call: ApprovalCall): boolean {
  return asked !== undefined && asked['toolName'] === call.toolName && canonicalJson(asked['input']) === canonicalJson(call.input);
}

function partsOf(message: ApprovalHistoryMessage): Record<string, unknown>[] {
  if (!Array.isArray(message.content)) return [];
  return message.content.filter((part): part is Record<string, unknown> => typeof part === 'object' && part !== null);
}

/** JSON with object keys sorted, so the same input compares equal whatever order its keys came in. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  ) ?? 'undefined';
}
