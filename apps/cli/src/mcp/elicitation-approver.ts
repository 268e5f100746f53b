import { renderApprovalCard, type Approver } from '@openwork/core';

/** What the approver needs of the MCP server: the client's capabilities and an elicitation request. */
export interface ElicitationChannel {
  supportsElicitation(): boolean;
  elicit(message: string, signal: AbortSignal): Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> | undefined }>;
}

export const NO_ELICITATION_REFUSAL =
  'Refused: this call needs the user\'s approval (an escalation or a dangerous command), and this MCP client cannot ask the user (it does not support elicitation). Continue without it, or ask the user to run the command themselves.';

/**
 * Approvals over MCP (docs/decisions/0066-cli-mcp-server-behaviour.md): the card goes to the user as an elicitation with one yes/no
 * field; only an accepted form with `approve: true` approves. A client without elicitation gets
 * every such call refused with a text that says so.
 */
export function elicitationApprover(channel: ElicitationChannel): Approver {
  return async (card, context) => {
    if (!channel.supportsElicitation()) return { approved: false, reason: NO_ELICITATION_REFUSAL };
    const answer = await channel.elicit(`${renderApprovalCard(card)}\nApprove this call?`, context.signal);
    if (answer.action === 'accept' && answer.content?.['approve'] === true) return true;
    return { approved: false, reason: answer.action === 'accept' ? 'The user refused this call.' : `The user ${answer.action === 'decline' ? 'declined' : 'dismissed'} the approval request.` };
  };
}
