import {
  canonicalizePathSync,
  justificationInputSchema,
  parseSandboxPermissions,
  sandboxPermissionsInputSchema,
  type PathGrant,
} from '@openwork/sandbox';
import { escapePath } from '@openwork/fs-backend';
import { ToolExecutionError } from '@openwork/tools-contract';
import * as z from 'zod';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { chooseSpellingSync } from '../context/choose-spelling.js';
import { expandHome } from '../context/expand-home.js';

/**
 * §7.5: the two escalation parameters of write, edit and bash, from the sandbox package's own
 * schemas (1–16 `{path, access, scope}`, unknown fields rejected). Both optional, so `finalize`
 * can remove them when no kernel sandbox is available (acceptance 10f).
 */
export const escalationInputShape = {
  sandboxPermissions: sandboxPermissionsInputSchema.optional(),
  justification: justificationInputSchema.optional(),
};

/** The escalation fields of a parsed input. */
export interface EscalationInput {
  readonly sandboxPermissions?: z.infer<typeof sandboxPermissionsInputSchema> | undefined;
  readonly justification?: string | undefined;
}

/**
 * §7.5 "带 sandboxPermissions 时必须非空": a refinement for the tool's input schema, so a request
 * without a justification is an `invalid tool input:` result naming the field.
 */
export function requireJustification(input: EscalationInput, context: z.RefinementCtx): void {
  if (input.sandboxPermissions === undefined) return;
  if (typeof input.justification === 'string' && input.justification.trim() !== '') return;
  context.addIssue({
    code: 'custom',
    path: ['justification'],
    message: 'must be a non-empty sentence, shown to the user, saying why this call needs the paths in sandboxPermissions',
  });
}

/** §6.1 `escalation`: the requested paths, canonicalised like every other path, and the reason. */
export interface EscalationRequest {
  readonly paths: readonly PathGrant[];
  readonly justification: string;
}

/**
 * The `escalation` fact for `prepare` (§6.1), or `undefined` without `sandboxPermissions`. Grant
 * paths get the same `~` expansion and canonicalisation as tool paths (architecture §3.3); a grant
 * path that cannot be canonicalised (NUL byte, dangling link) is refused with what to fix.
 * Synchronous because `prepare` is.
 */
export function escalationRequest(input: EscalationInput, session: ToolSessionContext): EscalationRequest | undefined {
  if (input.sandboxPermissions === undefined) return undefined;
  const parsed = parseSandboxPermissions({ sandboxPermissions: input.sandboxPermissions, justification: input.justification });
  if (!parsed.ok) throw new ToolExecutionError('invalid_arguments', parsed.message);
  const paths = parsed.request.paths.map((entry): PathGrant => {
    const expanded = expandHome(entry.path, session.homeDirectory);
    if (!expanded.ok) throw new ToolExecutionError('invalid_arguments', `invalid sandboxPermissions path: ${expanded.message}`);
    // Exact file names: a `\xNN` spelling means what it means in the tool's own path (`chooseSpelling`).
    const spelled = chooseSpellingSync(expanded.path, 'may-create', session.workingDirectory);
    if (!spelled.ok) throw new ToolExecutionError('invalid_arguments', `invalid sandboxPermissions path: ${spelled.message}`);
    const resolution = canonicalizePathSync(spelled.path, { cwd: session.workingDirectory, intent: 'may-create' });
    if (!resolution.ok) {
      throw new ToolExecutionError('invalid_arguments', `invalid sandboxPermissions path ${JSON.stringify(entry.path)}: ${escapePath(resolution.message)}`);
    }
    return Object.freeze({ path: resolution.path, access: entry.access, scope: entry.scope });
  });
  return Object.freeze({ paths: Object.freeze(paths), justification: parsed.request.justification });
}
