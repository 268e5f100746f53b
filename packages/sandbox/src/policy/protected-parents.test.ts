import { describe, expect, it } from 'vitest';
import { checkAccess, createSandboxPolicy, deriveSandboxLayout, protectedParents, type SandboxMode } from '../index.js';

// Paths that do not exist: the policy is pure once built (canonical roots are kept as given).
const ws = '/no-such-openwork-test/ws';
const home = '/no-such-openwork-test/home';
const temp = '/no-such-openwork-test/tmp';

function policy(mode: SandboxMode, grants: Parameters<typeof createSandboxPolicy>[0]['grants'] = []) {
  return createSandboxPolicy({ mode, workspaceRoots: [ws], homeDirectory: home, tempRoots: [temp], letterCase: 'sensitive', grants });
}

const parentsOf = (mode: SandboxMode) => protectedParents(deriveSandboxLayout(policy(mode))).map((entry) => entry.path);

describe('protectedParents', () => {
  it('workspace-write: each root and the folders between it and its protected entries, nothing above the roots', () => {
    expect(parentsOf('workspace-write')).toEqual([`${temp}`, `${temp}/.git`, ws, `${ws}/.git`].sort());
  });

  it('read-only: nothing is writable, so nothing needs it', () => {
    expect(parentsOf('read-only')).toEqual([]);
  });

  it('full-access: every folder from / down to each protected and credential entry, / itself excluded', () => {
    const parents = parentsOf('full-access');
    for (const folder of ['/no-such-openwork-test', home, `${home}/.config`, `${home}/.local`, `${home}/.local/share`, `${home}/Library`, ws, `${ws}/.git`]) {
      expect(parents, folder).toContain(folder);
    }
    expect(parents).not.toContain('/');
    expect(parents.every((folder) => protectedParents(deriveSandboxLayout(policy('full-access'))).some((entry) => entry.path === folder && entry.scope === 'exact'))).toBe(true);
  });

  it('the fence refuses writing the folder itself with its own text — not escalatable — and keeps what is inside writable', () => {
    const decision = checkAccess(policy('workspace-write'), `${ws}/.git`, 'write', 'file-tool', { tool: 'write' });
    expect(decision).toEqual({
      allowed: false,
      path: `${ws}/.git`,
      access: 'write',
      tier: 'writable-root',
      sandboxDenied: false,
      message: `Permission denied: ${ws}/.git holds protected paths, so it cannot be created, moved, replaced or removed by tools. Change the files inside it instead.`,
    });
    expect(checkAccess(policy('workspace-write'), `${ws}/.git/index`, 'write', 'file-tool').allowed).toBe(true);
    expect(checkAccess(policy('workspace-write'), `${ws}/.git`, 'read', 'file-tool').allowed).toBe(true);
  });

  it('a grant on the folder itself does not unlock it (a grant on an ancestor never unlocks what is below, §3.3)', () => {
    const granted = policy('workspace-write', [{ path: `${ws}/.git`, access: 'write', scope: 'subtree' }]);
    expect(checkAccess(granted, `${ws}/.git`, 'write', 'process').allowed).toBe(false);
    expect(checkAccess(granted, `${ws}/.git/hooks/pre-commit`, 'write', 'process').allowed).toBe(false);
  });

  it('a write grant on the home folder: the folders that hold credential and start-up files inside it stay unmovable', () => {
    const granted = policy('workspace-write', [{ path: home, access: 'write', scope: 'subtree' }]);
    const parents = protectedParents(deriveSandboxLayout(granted)).map((entry) => entry.path);
    expect(parents).toContain(home);
    expect(parents).toContain(`${home}/.config`);
    expect(checkAccess(granted, `${home}/.config`, 'write', 'process').allowed).toBe(false);
    expect(checkAccess(granted, `${home}/notes.txt`, 'write', 'process').allowed).toBe(true);
  });
});
