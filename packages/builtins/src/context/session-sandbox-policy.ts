import { createSandboxPolicy, type CreateSandboxPolicyOptions, type SandboxPolicy } from '@openwork/sandbox';
import type { ToolSessionContext } from './tool-session-context.js';

/** What may differ from the session in its policy: the mode, temp roots, extra roots, protected lists, grants. */
export type SessionPolicyOptions = Omit<CreateSandboxPolicyOptions, 'workspaceRoots' | 'homeDirectory' | 'openworkHome' | 'skillRoots'>;

/**
 * A `SandboxPolicy` for calls of this session (architecture §3): the session's workspace roots,
 * home directory, OpenWork home and skill roots, plus `options` (mode, grants …). Core stamps such
 * a policy on every call (§5); tools never build one themselves.
 */
export function sessionSandboxPolicy(session: ToolSessionContext, options: SessionPolicyOptions = {}): SandboxPolicy {
  return createSandboxPolicy({
    ...options,
    workspaceRoots: session.workspaceRoots,
    homeDirectory: session.homeDirectory,
    openworkHome: session.openworkHome,
    skillRoots: session.skillRoots,
  });
}
