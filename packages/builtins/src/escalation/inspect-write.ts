import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { CallInspection, type CallFacts } from '@openwork/tools-contract';
import { expandHome } from '../context/expand-home.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { escalationRequest, type EscalationInput } from './escalation-parameters.js';

/**
 * §6.1 for write and edit: `writes(target)` with the model's path, `protectedTarget` when the
 * target is hard-protected (core denies without running), and `escalation` when the call asks for
 * extra paths.
 */
export function inspectWrite(target: string, input: EscalationInput, session: ToolSessionContext): CallInspection {
  const facts: { protectedTarget?: string; escalation?: unknown; refusal?: string } = {};
  const protectedTarget = session.protectedTarget(target);
  if (protectedTarget !== undefined) facts.protectedTarget = protectedTarget;
  const escalation = escalationRequest(input, session);
  if (escalation !== undefined) {
    facts.escalation = escalation;
    // Asking the person for a write that then fails "Read … before editing it" wastes their "y"
    // (docs/decisions/0093-cli-small-things-a-person-meets.md): an existing file the model has not
    // read is refused before anyone is asked, with the same text the call would end with.
    const unread = unreadExistingFile(target, session);
    if (unread !== undefined) facts.refusal = `Read ${unread} before editing it.`;
  }
  return CallInspection.writes(target, facts as CallFacts);
}

/** `target` when it names an existing regular file that this session never read, wrote or edited. */
function unreadExistingFile(target: string, session: ToolSessionContext): string | undefined {
  const expanded = expandHome(target, session.homeDirectory);
  if (!expanded.ok) return undefined;
  const absolute = isAbsolute(expanded.path) ? expanded.path : resolve(session.workingDirectory, expanded.path);
  try {
    if (!statSync(absolute).isFile()) return undefined;
    return session.observations.seen(realpathSync(absolute)) ? undefined : target;
  } catch {
    return undefined; // missing or unreadable: the call itself says what is wrong
  }
}
