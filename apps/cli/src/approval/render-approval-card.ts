import type { ApprovalCard } from '@openwork/core';

/**
 * The approval card as plain text (architecture §4): the tool, what the call does, the extra
 * paths with access and scope, the model's justification, and why a command is dangerous.
 */
export function renderApprovalCard(card: ApprovalCard): string {
  const lines = [`The ${card.toolId} tool asks for approval (${card.reasons.join(' and ')}).`];
  if (card.command !== undefined) lines.push(`  command: ${card.command}`);
  if (card.target !== undefined) lines.push(`  target: ${card.target}`);
  for (const grant of card.paths) lines.push(`  ${grant.access} access to ${grant.path} (${grant.scope})`);
  if (card.justification !== undefined) lines.push(`  justification: ${card.justification}`);
  if (card.danger !== undefined) lines.push(...card.danger.reason.split('\n').map((line) => `  danger: ${line}`));
  return lines.join('\n');
}
