import { auditGitRepositories, formatGitAuditFinding } from '../policy/audit-git-repositories.js';
import type { SandboxPolicy } from '../policy/sandbox-policy.js';
import type { SandboxReleaseReport, WrappedCommand } from './sandbox-backend.js';

/**
 * Every backend's `release()` ends with the git audit of issue 23 (architecture §3.7): once the
 * command's processes are gone, no repository it left where the user's git would recurse may hold
 * configuration that runs a program. The audit runs before the backend's own clean-up and also
 * when that fails; its notices are returned, or added to the clean-up's error.
 */
export function withGitAudit(wrapped: WrappedCommand, policy: SandboxPolicy): WrappedCommand {
  let audited = false;
  return {
    argv: wrapped.argv,
    release: async (): Promise<SandboxReleaseReport> => {
      const notices = audited ? [] : auditGitRepositories(policy).map(formatGitAuditFinding);
      audited = true;
      let inner: SandboxReleaseReport | void;
      try {
        inner = await wrapped.release();
      } catch (error) {
        if (notices.length > 0 && error instanceof Error) error.message = `${error.message}\n${notices.join('\n')}`;
        throw error;
      }
      return { notices: [...notices, ...(inner?.notices ?? [])] };
    },
  };
}
