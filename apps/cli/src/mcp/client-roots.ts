import { realpath, stat } from 'node:fs/promises';
import type { Session } from '@openwork/core';

/** The session's policy (the sandbox's `SandboxPolicy`): its paths are canonical. */
type SandboxPolicy = ReturnType<Session['sandboxPolicy']>;
import { fileURLToPath } from 'node:url';
import { filesystemRootRefusal, isFilesystemRoot } from '../runtime/workspace-roots.js';

/** A client root that was not used, with the reason (one warning line each). */
export interface DroppedRoot {
  readonly uri: string;
  readonly reason: string;
}

function isAtOrBelow(path: string, base: string): boolean {
  return path === base || base === '/' || path.startsWith(`${base}/`);
}

/**
 * Why a client root may not be a workspace root, or undefined (docs/decisions/0098-mcp-roots-never-lower-a-tier.md):
 * a root makes its folder writable, so it must not be HOME or a folder above it, nor hold or lie
 * inside the OpenWork home or a skill root, nor lie inside a credential or protected start-up
 * entry. The policy's tiers would still hold for those entries; the root is refused anyway, and the
 * client told, because a client that offers HOME means "the project" and gets it wrong.
 * `canonical` is the root with every link resolved.
 */
export function protectedRootReason(canonical: string, policy: SandboxPolicy): string | undefined {
  const home = policy.homeDirectory;
  if (isAtOrBelow(home, canonical)) {
    return canonical === home
      ? 'it is your home folder: as a workspace root every file in it would be writable but the protected ones; give the project\'s folder instead'
      : 'it holds your home folder: as a workspace root every file in HOME would be writable but the protected ones; give the project\'s folder instead';
  }
  for (const protectedRoot of [policy.openworkHome, ...policy.skillRoots]) {
    const what = protectedRoot === policy.openworkHome ? 'the OpenWork home (sessions, spill, settings)' : 'a skill root';
    if (isAtOrBelow(canonical, protectedRoot)) return `it is inside ${what}, which tools may never change`;
    if (isAtOrBelow(protectedRoot, canonical)) return `it holds ${what}, which tools may never change; give the project's folder instead`;
  }
  if ([...policy.credentialPaths, ...policy.storedSecretPaths].some((entry) => isAtOrBelow(canonical, entry))) {
    return 'it is a credential path (secrets stay unreadable without approval)';
  }
  if ([...policy.sensitiveHomePaths, ...policy.hardProtectedAliases].some((entry) => isAtOrBelow(canonical, entry))) {
    return 'it is a protected path (changing it runs code outside the sandbox later)';
  }
  return undefined;
}

/**
 * Workspace roots from the client's MCP roots (as the reference filesystem server does): the
 * `file://` roots that are existing folders, in the client's order. Each root is judged on its
 * own (MCP clients): an invalid one is dropped with its reason and the others still apply; so is
 * one that would lower a tier (`protectedRootReason`, judged under `policy`). An empty `folders`
 * means "use the fallback" (`--workspace`).
 */
export async function workspaceRootsFromClient(roots: readonly unknown[], policy?: SandboxPolicy): Promise<{ folders: string[]; dropped: DroppedRoot[] }> {
  const folders: string[] = [];
  const dropped: DroppedRoot[] = [];
  for (const root of roots) {
    const uri = typeof root === 'object' && root !== null ? (root as { uri?: unknown }).uri : undefined;
    if (typeof uri !== 'string') {
      dropped.push({ uri: JSON.stringify(root)?.slice(0, 200) ?? String(root), reason: 'it has no uri string' });
      continue;
    }
    if (!uri.startsWith('file://')) {
      dropped.push({ uri, reason: 'only file:// roots name a folder of this machine' });
      continue;
    }
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch (error) {
      dropped.push({ uri, reason: `it is not a valid file URL (${error instanceof Error ? error.message : String(error)})` });
      continue;
    }
    const entry = await stat(path).catch(() => undefined);
    if (entry?.isDirectory() !== true) {
      dropped.push({ uri, reason: entry === undefined ? 'no such folder' : 'it is not a folder' });
      continue;
    }
    if (isFilesystemRoot(path)) {
      // No `/` root: `/` as a workspace root would make everything outside the protected paths writable.
      dropped.push({ uri, reason: filesystemRootRefusal('it') });
      continue;
    }
    if (policy !== undefined) {
      const canonical = await realpath(path).catch(() => path);
      const reason = protectedRootReason(canonical, policy);
      if (reason !== undefined) {
        dropped.push({ uri, reason });
        continue;
      }
    }
    if (!folders.includes(path)) folders.push(path);
  }
  return { folders, dropped };
}
