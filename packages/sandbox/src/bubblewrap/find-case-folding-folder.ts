import { isCaseInsensitiveDirectory } from '../policy/detect-letter-case.js';
import { protectedParents } from '../policy/protected-parents.js';
import type { SandboxLayout } from '../policy/sandbox-layout.js';

/**
 * The first folder holding protected entries inside something writable whose file system finds
 * names under any letter case, or `undefined`. There a bind mount protects one spelling only: on a
 * loop-mounted exFAT volume, `echo … > .GIT/HOOKS/pre-commit` wrote through the read-only mount
 * on `.git/hooks` (reproduced in the case-insensitive volume test). bubblewrap cannot enumerate
 * every spelling, so `BubblewrapBackend.wrap` refuses such a policy (fail closed, §3.4).
 */
export function findCaseFoldingFolder(layout: SandboxLayout, foldsCase: (folder: string) => boolean = isCaseInsensitiveDirectory): string | undefined {
  for (const { path } of protectedParents(layout)) {
    if (foldsCase(path)) return path;
  }
  return undefined;
}
