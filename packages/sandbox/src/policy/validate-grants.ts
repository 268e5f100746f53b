import { canonicalizePath } from './canonicalize-path.js';
import { parseSandboxPermissions } from './sandbox-permissions.js';
import type { PathGrant } from './sandbox-policy.js';

export interface ValidateGrantsOptions {
  /** Working directory relative grant paths are resolved against. */
  readonly cwd: string;
}

/** Canonical grants ready for `withGrants`, with the justification to show the user. */
export type GrantValidation =
  | { readonly ok: true; readonly grants: readonly PathGrant[]; readonly justification: string }
  | { readonly ok: false; readonly message: string };

/**
 * Parse the escalation parameters and canonicalise every grant path like any other path
 * (architecture §3.3): `may-create`, so a grant may name a file that does not exist yet; a NUL
 * byte or a dangling symbolic link on the way rejects the whole request.
 */
export async function validateGrants(
  input: { readonly sandboxPermissions: unknown; readonly justification?: unknown },
  options: ValidateGrantsOptions,
): Promise<GrantValidation> {
  const parsed = parseSandboxPermissions(input);
  if (!parsed.ok) return parsed;
  const grants: PathGrant[] = [];
  for (const entry of parsed.request.paths) {
    const resolution = await canonicalizePath(entry.path, { cwd: options.cwd, intent: 'may-create' });
    if (!resolution.ok) {
      return { ok: false, message: `invalid sandboxPermissions path ${JSON.stringify(entry.path)}: ${resolution.message}` };
    }
    grants.push(Object.freeze({ path: resolution.path, access: entry.access, scope: entry.scope }));
  }
  return { ok: true, grants: Object.freeze(grants), justification: parsed.request.justification };
}
