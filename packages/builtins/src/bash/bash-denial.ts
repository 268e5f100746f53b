import {
  canonicalizePathSync,
  checkAccess,
  detectSandboxDenial,
  formatDenialMarker,
  type AccessDecision,
  type PathAccess,
  type SandboxPolicy,
} from '@openwork/sandbox';

/**
 * §7.9 "拒绝识别作用在合并且截断后的输出上": the `[sandbox denied: …]` marker for a command that
 * exited non-zero with the kernel's words for a path this call's policy denies (architecture
 * §3.5), or `undefined`. Only paths the policy denies count, so an ordinary `Permission denied`
 * (a file mode, a missing `sudo`) is not called a sandbox denial, and ordinary output that merely
 * contains "sandbox" or "denied" never is. Relative paths in the output are taken from `cwd`, where
 * the command started.
 */
export function bashDenialMarker(exitCode: number | null, output: string, policy: SandboxPolicy, cwd: string): string | undefined {
  const decide = (path: string, access: PathAccess): AccessDecision | undefined => {
    const resolution = canonicalizePathSync(path, { cwd, intent: 'may-create' });
    return resolution.ok ? checkAccess(policy, resolution.path, access, 'process') : undefined;
  };
  const denial = detectSandboxDenial({ exitCode, output, isPathDenied: (path, access) => decide(path, access)?.allowed === false });
  if (denial === undefined) return undefined;
  return formatDenialMarker(denial, {
    toolName: 'bash',
    workingDirectory: cwd,
    // Tier 1 and folders holding protected entries: no grant opens them (architecture §3.3).
    canBeGranted: (path, access) => {
      const decision = decide(path, access);
      return decision === undefined || decision.allowed || decision.suggestedGrant !== undefined;
    },
  });
}
