import { z } from 'zod';

/** One path of `sandboxPermissions.paths` (spec §7.5). Unknown fields are rejected. */
export const pathGrantInputSchema = z.strictObject({
  path: z.string().min(1).describe('Absolute path, or relative to the working directory'),
  access: z.enum(['read', 'write']),
  scope: z.enum(['exact', 'subtree']),
});

/** `SandboxPermissionsInput` of spec §7.5: only `paths`, 1–16 entries, unknown fields rejected. */
export const sandboxPermissionsInputSchema = z
  .strictObject({
    paths: z.array(pathGrantInputSchema).min(1).max(16),
  })
  .describe('Extra paths this call needs beyond the sandbox policy; the user approves');

/** `justification`: shown to the user; must be non-empty when `sandboxPermissions` is present. */
export const justificationInputSchema = z
  .string()
  .describe('Why this call needs the extra paths, one sentence for the user');

export type SandboxPermissionsInput = z.infer<typeof sandboxPermissionsInputSchema>;

/** The escalation request as the model sent it, after syntactic validation. */
export interface SandboxPermissionsRequest {
  readonly paths: SandboxPermissionsInput['paths'];
  readonly justification: string;
}

export type SandboxPermissionsParse =
  | { readonly ok: true; readonly request: SandboxPermissionsRequest }
  | { readonly ok: false; readonly message: string };

/**
 * Validate the two escalation parameters of a tool input (§7.5, architecture §3.3): the shape of
 * `sandboxPermissions` and a non-empty `justification`. Paths are not canonicalised here; see
 * `validateGrants`.
 */
export function parseSandboxPermissions(input: { readonly sandboxPermissions: unknown; readonly justification?: unknown }): SandboxPermissionsParse {
  const parsed = sandboxPermissionsInputSchema.safeParse(input.sandboxPermissions);
  if (!parsed.success) {
    return { ok: false, message: `invalid sandboxPermissions: ${z.prettifyError(parsed.error).replace(/\n+/g, '; ')}` };
  }
  const justification = typeof input.justification === 'string' ? input.justification.trim() : '';
  if (justification.length === 0) {
    return { ok: false, message: 'invalid sandboxPermissions: justification must be a non-empty sentence explaining why the call needs these paths' };
  }
  return { ok: true, request: { paths: parsed.data.paths, justification } };
}
