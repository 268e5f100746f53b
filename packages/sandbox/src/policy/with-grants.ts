import { normalizePathText } from './canonicalize-path.js';
import { SandboxConfigurationError } from './sandbox-error.js';
import type { PathGrant, SandboxPolicy } from './sandbox-policy.js';

/**
 * The policy of one call: `policy` plus approved `grants` (architecture §3.3). Returns a new
 * frozen value; `policy` itself is untouched, so the widening lasts for this call only. Tier 1 is
 * never unlocked: `deriveSandboxLayout` drops grants at or below hard-protected paths.
 *
 * Pure: grant paths must already be canonical (as `validateGrants` returns them); a relative,
 * non-normalised or NUL-containing path is a programmer error and throws.
 */
export function withGrants(policy: SandboxPolicy, grants: readonly PathGrant[]): SandboxPolicy {
  const added = grants.map((grant) => {
    if ((grant.access !== 'read' && grant.access !== 'write') || (grant.scope !== 'exact' && grant.scope !== 'subtree')) {
      throw new SandboxConfigurationError(`invalid grant ${JSON.stringify(grant)}`);
    }
    if (typeof grant.path !== 'string' || !grant.path.startsWith('/') || grant.path.includes('\0') || normalizePathText(grant.path, '/') !== grant.path) {
      throw new SandboxConfigurationError(`grant paths must be canonical absolute paths (use validateGrants), got ${JSON.stringify(grant.path)}`);
    }
    return Object.freeze({ path: grant.path, access: grant.access, scope: grant.scope });
  });
  if (added.length === 0) return policy;
  return Object.freeze({ ...policy, grants: Object.freeze([...policy.grants, ...added]) });
}
