import { escapePath } from '@openwork/fs-backend';
import { revealHiddenCharacters } from '@openwork/tools-contract';
import type { ApprovalCard } from './approval.js';

/**
 * The approval card as plain text (architecture §4): the tool, why a command is dangerous (first:
 * a client may show only the first three lines), what the call does, the extra paths with access
 * and scope, then the model's description and justification.
 *
 * Architecture §3.9: every model-written text on it (description, command, target, paths, justification, the
 * command words quoted in a danger reason) goes through `revealHiddenCharacters`, so each field is
 * one line and escape sequences, carriage returns or bidirectional overrides cannot rewrite the
 * card: a person approves what the card says, and the card says what runs. The terminal card of
 * the CLI, its MCP elicitations and the AI SDK adapter's `approvalText` all use this text.
 */
export function renderApprovalCard(card: ApprovalCard): string {
  const shown = revealHiddenCharacters;
  const lines = [`The ${shown(card.toolId)} tool asks for approval (${card.reasons.join(' and ')}).`];
  // The danger first: a client may show only the first lines of the card (Claude Code shows three
  // of an elicitation message), and what the person must weigh is why it is dangerous.
  if (card.danger !== undefined) lines.push(...card.danger.reason.split('\n').map((line) => `  danger: ${shown(line)}`));
  if (card.command !== undefined) lines.push(`  command: ${shown(card.command)}`);
  if (card.target !== undefined) lines.push(`  target: ${shown(card.target)}`);
  // Canonical paths may hold bytes that are not UTF-8 (exact file names): shown as `\xNN`, as the tools show them.
  for (const grant of card.paths) lines.push(`  ${grant.access} access to ${shown(escapePath(grant.path))} (${grant.scope})`);
  // What the model says about the call comes after what the call is.
  if (card.description !== undefined) lines.push(`  description: ${shown(card.description)}`);
  if (card.justification !== undefined) lines.push(`  justification: ${shown(card.justification)}`);
  return lines.join('\n');
}
