import { createSandboxPolicy, type CreateSandboxPolicyOptions, type SandboxPolicy } from '@openwork/sandbox';
import type { ToolSessionContext } from './tool-session-context.js';

/** What may differ from the session in its policy: the mode, temp roots, extra roots, protected lists, grants. */
export type SessionPolicyOptions = Omit<CreateSandboxPolicyOptions, 'workspaceRoots' | 'homeDirectory' | 'openworkHome' | 'skillRoots' | 'sessionSpillDirectory'>;

/**
 * A `SandboxPolicy` for calls of this session (architecture §3): the session's workspace roots,
 * home directory, OpenWork home and skill roots, plus `options` (mode, grants …). Core stamps such
 * a policy on every call (§5); tools never build one themselves. The session's spill folder is the
 * one spill folder its tools may read (architecture §3.8).
 */
export function sessionSandboxPolicy(session: ToolSessionContext, options: SessionPolicyOptions = {}): SandboxPolicy {
  return createSandboxPolicy({
    ...options,
    workspaceRoots: session.workspaceRoots,
    homeDirectory: session.homeDirectory,
    openworkHome: session.openworkHome,
    skillRoots: session.skillRoots,
    ...(session.spill === undefined ? {} : { sessionSpillDirectory: session.spill.directory }),
  });
}
