import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxConfigurationError, checkAccess, createSandboxPolicy, deriveSandboxLayout, toolSlot, withGrants, type SandboxMode } from '../index.js';

let root: string;
let ws: string;
let home: string;
let temp: string;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ow-check-')));
  ws = path.join(root, 'ws');
  home = path.join(root, 'home');
  temp = path.join(root, 'tmp');
  for (const dir of [ws, home, temp]) await fs.mkdir(dir, { recursive: true });
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function policy(mode: SandboxMode, extra: Partial<Parameters<typeof createSandboxPolicy>[0]> = {}) {
  return createSandboxPolicy({ mode, workspaceRoots: [ws], homeDirectory: home, tempRoots: [temp], skillRoots: [path.join(home, 'skills')], ...extra });
}

const modes: SandboxMode[] = ['read-only', 'workspace-write', 'full-access'];

describe('modes (architecture §3.1)', () => {
  it('read-only reads everywhere but credentials and writes nowhere', () => {
    const p = policy('read-only');
    expect(checkAccess(p, path.join(ws, 'a'), 'read', 'file-tool').allowed).toBe(true);
    expect(checkAccess(p, '/etc/hostname', 'read', 'process').allowed).toBe(true);
    expect(checkAccess(p, path.join(ws, 'a'), 'write', 'file-tool')).toMatchObject({ allowed: false, tier: 'outside', sandboxDenied: true });
    expect(checkAccess(p, path.join(temp, 'a'), 'write', 'process').allowed).toBe(false);
    expect(checkAccess(p, path.join(home, '.ssh/id_rsa'), 'read', 'file-tool').allowed).toBe(false);
  });

  it('workspace-write adds the workspace, extra and temp roots', () => {
    const p = policy('workspace-write', { extraWritableRoots: [path.join(root, 'extra')] });
    for (const target of [path.join(ws, 'a/b.txt'), path.join(temp, 'x'), path.join(root, 'extra/y')]) {
      expect(checkAccess(p, target, 'write', 'file-tool')).toMatchObject({ allowed: true, tier: 'writable-root' });
    }
    expect(checkAccess(p, path.join(root, 'elsewhere'), 'write', 'file-tool')).toMatchObject({ allowed: false, tier: 'outside' });
  });

  it('full-access writes everywhere except hard-protected and sensitive paths; credentials stay unreadable', () => {
    const p = policy('full-access');
    expect(checkAccess(p, '/usr/local/x', 'write', 'file-tool').allowed).toBe(true);
    expect(checkAccess(p, path.join(home, '.openwork/spill/x'), 'write', 'file-tool')).toMatchObject({ allowed: false, tier: 'hard-protected' });
    expect(checkAccess(p, path.join(home, '.bashrc'), 'write', 'file-tool')).toMatchObject({ allowed: false, tier: 'sensitive' });
    expect(checkAccess(p, path.join(ws, '.git/hooks/pre-push'), 'write', 'process')).toMatchObject({ allowed: false, tier: 'sensitive' });
    expect(checkAccess(p, path.join(home, '.aws/credentials'), 'read', 'process')).toMatchObject({ allowed: false, tier: 'credential' });
  });

  it('the default mode is workspace-write', () => {
    expect(createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home }).mode).toBe('workspace-write');
  });

  it('configuration mistakes throw SandboxConfigurationError (programmer errors, not tool results)', () => {
    const attempts = [
      () => createSandboxPolicy({ workspaceRoots: ['relative/ws'], homeDirectory: home }),
      () => createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: 'home' }),
      () => createSandboxPolicy({ workspaceRoots: [`${ws}\0x`], homeDirectory: home }),
      () => createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home, sensitiveRootEntries: ['../escape'] }),
      () => createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home, mode: 'yolo' as SandboxMode }),
      () => withGrants(policy('read-only'), [{ path: 'relative', access: 'write', scope: 'exact' }]),
      () => withGrants(policy('read-only'), [{ path: '/a/../b', access: 'write', scope: 'exact' }]),
    ];
    for (const attempt of attempts) {
      let thrown: unknown;
      try {
        attempt();
      } catch (error) {
        thrown = error;
      }
      expect(SandboxConfigurationError.isInstance(thrown), String(attempt)).toBe(true);
    }
  });
});

describe('tiers (architecture §3.2)', () => {
  it('tier 1: OpenWork home, skill roots and <ws>/.openwork are readable and never writable, in every mode', () => {
    for (const mode of modes) {
      const p = policy(mode);
      for (const target of [path.join(home, '.openwork'), path.join(home, '.openwork/config.json'), path.join(home, 'skills/x/SKILL.md'), path.join(ws, '.openwork/state.json')]) {
        expect(checkAccess(p, target, 'read', 'file-tool').allowed).toBe(true);
        for (const actor of ['file-tool', 'process'] as const) {
          expect(checkAccess(p, target, 'write', actor)).toMatchObject({ allowed: false, tier: 'hard-protected', sandboxDenied: false });
        }
      }
    }
  });

  it('tier 2: every default credential path is neither readable nor writable, for both actors', () => {
    const p = policy('full-access');
    const credentials = ['.ssh', '.gnupg', '.aws', '.azure', '.config/gcloud', '.kube', '.docker', '.netrc', '.git-credentials', '.npmrc', '.pypirc', '.config/gh', '.password-store', '.local/share/keyrings', 'Library/Keychains'];
    for (const name of credentials) {
      for (const target of [path.join(home, name), path.join(home, name, 'inner')]) {
        for (const actor of ['file-tool', 'process'] as const) {
          expect(checkAccess(p, target, 'read', actor), target).toMatchObject({ allowed: false, tier: 'credential', sandboxDenied: true });
          expect(checkAccess(p, target, 'write', actor).allowed, target).toBe(false);
        }
      }
    }
  });

  it('tier 3: shell start-up files, git config, and .git/hooks, .git/config, .envrc, .vscode, .idea below roots are read-only, even when missing', () => {
    const p = policy('workspace-write');
    const targets = [
      ...['.bashrc', '.bash_profile', '.profile', '.zshrc', '.zprofile', '.zshenv', '.zlogin', '.config/fish/config.fish', '.gitconfig'].map((name) => path.join(home, name)),
      ...['.git/hooks/pre-commit', '.git/hooks', '.git/config', '.envrc', '.vscode', '.vscode/settings.json', '.idea/workspace.xml'].flatMap((name) => [path.join(ws, name), path.join(temp, name)]),
    ];
    for (const target of targets) {
      expect(checkAccess(p, target, 'read', 'file-tool').allowed, target).toBe(true);
      expect(checkAccess(p, target, 'write', 'file-tool'), target).toMatchObject({ allowed: false, tier: 'sensitive', sandboxDenied: true });
    }
    expect(checkAccess(p, path.join(ws, '.envrc.local'), 'write', 'file-tool').allowed).toBe(true);
    expect(checkAccess(p, path.join(ws, '.vscode-not'), 'write', 'file-tool').allowed).toBe(true);
  });

  it('a root entry that is a symbolic link protects its target too (.git/hooks -> githooks)', async () => {
    const repo = path.join(root, 'linked-hooks');
    await fs.mkdir(path.join(repo, '.git'), { recursive: true });
    await fs.mkdir(path.join(repo, 'githooks'));
    await fs.symlink(path.join(repo, 'githooks'), path.join(repo, '.git/hooks'));
    const p = createSandboxPolicy({ workspaceRoots: [repo], homeDirectory: home, tempRoots: [] });
    expect(p.sensitiveRootAliases).toEqual([path.join(repo, 'githooks')]);
    expect(checkAccess(p, path.join(repo, 'githooks/pre-commit'), 'write', 'process')).toMatchObject({ allowed: false, tier: 'sensitive' });
    expect(checkAccess(p, path.join(repo, '.git/hooks'), 'write', 'process').allowed).toBe(false);
    expect(checkAccess(p, path.join(repo, 'src.ts'), 'write', 'process').allowed).toBe(true);
  });

  it('tier 1 given through a symbolic link: the link cannot be replaced and a linked <ws>/.openwork protects its target', async () => {
    const linked = path.join(root, 'linked-tier1');
    const linkedHome = path.join(linked, 'home');
    const repo = path.join(linked, 'repo');
    for (const dir of [linkedHome, repo, path.join(linked, 'ow-data'), path.join(linked, 'dotfiles/skills'), path.join(linked, 'repo-state')]) {
      await fs.mkdir(dir, { recursive: true });
    }
    await fs.symlink(path.join(linked, 'ow-data'), path.join(linkedHome, '.openwork'));
    await fs.symlink(path.join(linked, 'dotfiles/skills'), path.join(linkedHome, 'skills'));
    await fs.symlink(path.join(linked, 'repo-state'), path.join(repo, '.openwork'));
    for (const mode of modes) {
      const p = createSandboxPolicy({ mode, workspaceRoots: [repo, linkedHome], homeDirectory: linkedHome, tempRoots: [], skillRoots: [path.join(linkedHome, 'skills')] });
      expect(p.openworkHome).toBe(path.join(linked, 'ow-data'));
      // rm ~/.openwork && mkdir ~/.openwork would swap the OpenWork home: the link location is tier 1 too.
      for (const target of [path.join(linkedHome, '.openwork'), path.join(linkedHome, 'skills'), path.join(linked, 'ow-data/config.json'), path.join(linked, 'dotfiles/skills/s/SKILL.md'), path.join(linked, 'repo-state/state.json')]) {
        for (const actor of ['file-tool', 'process'] as const) {
          expect(checkAccess(p, target, 'write', actor), `${mode} ${actor} ${target}`).toMatchObject({ allowed: false, tier: 'hard-protected', sandboxDenied: false });
        }
      }
      const granted = withGrants(p, [{ path: path.join(linkedHome, '.openwork'), access: 'write', scope: 'exact' }]);
      expect(checkAccess(granted, path.join(linkedHome, '.openwork'), 'write', 'process').allowed).toBe(false);
      if (mode !== 'read-only') expect(checkAccess(p, path.join(linkedHome, 'notes.txt'), 'write', 'process').allowed).toBe(true);
    }
  });

  it('configured lists understand ~ and ~/ (configuration, not model input) and refuse ~user', () => {
    const p = policy('workspace-write', { credentialPaths: ['~/.vault-token'], sensitiveHomePaths: ['~/.tmux.conf'] });
    expect(p.credentialPaths).toContain(path.join(home, '.vault-token'));
    expect(p.credentialPaths.some((entry) => entry.includes('~'))).toBe(false);
    expect(checkAccess(p, path.join(home, '.vault-token'), 'read', 'process').allowed).toBe(false);
    expect(checkAccess(p, path.join(home, '.tmux.conf'), 'write', 'process')).toMatchObject({ allowed: false, tier: 'sensitive' });
    expect(policy('workspace-write', { sensitiveHomePaths: { replace: ['~'] } }).sensitiveHomePaths).toEqual([home]);
    expect(() => policy('workspace-write', { credentialPaths: ['~root/.ssh'] })).toThrow(SandboxConfigurationError);
  });

  it('configured credential and sensitive lists add to or replace the defaults', () => {
    const added = policy('workspace-write', { credentialPaths: ['.vault-token', path.join(root, 'secrets')], sensitiveRootEntries: ['Makefile'] });
    expect(checkAccess(added, path.join(home, '.vault-token'), 'read', 'process').allowed).toBe(false);
    expect(checkAccess(added, path.join(root, 'secrets/a'), 'read', 'process').allowed).toBe(false);
    expect(checkAccess(added, path.join(home, '.ssh/id_rsa'), 'read', 'process').allowed).toBe(false);
    expect(checkAccess(added, path.join(ws, 'Makefile'), 'write', 'process').allowed).toBe(false);
    const replaced = policy('workspace-write', { credentialPaths: { replace: ['.only-this'] }, sensitiveRootEntries: { replace: [] } });
    expect(checkAccess(replaced, path.join(home, '.ssh/id_rsa'), 'read', 'process').allowed).toBe(true);
    expect(checkAccess(replaced, path.join(home, '.only-this'), 'read', 'process').allowed).toBe(false);
    expect(checkAccess(replaced, path.join(ws, 'Makefile'), 'write', 'process').allowed).toBe(true);
    // The place-based list is configurable; tier 3 by kind (architecture §3.10) is not: `.envrc` stays protected.
    expect(checkAccess(replaced, path.join(ws, '.envrc'), 'write', 'process')).toMatchObject({ allowed: false, tier: 'sensitive', sandboxDenied: true });
  });

  it('device files are writable for processes only', () => {
    for (const mode of modes) {
      const p = policy(mode);
      // /dev/fd/N: on macOS /dev/stdout is a link to fd/1 and Seatbelt checks the resolved name.
      for (const device of ['/dev/null', '/dev/zero', '/dev/tty', '/dev/stdout', '/dev/stderr', '/dev/fd/1', '/dev/fd/2']) {
        expect(checkAccess(p, device, 'write', 'process').allowed, `${mode} ${device}`).toBe(true);
        if (mode !== 'full-access') expect(checkAccess(p, device, 'write', 'file-tool').allowed, `${mode} ${device}`).toBe(false);
      }
    }
    // In full-access a file tool may write anywhere writable, which `/` includes.
    expect(deriveSandboxLayout(policy('full-access')).writable).toContainEqual({ path: '/', scope: 'subtree' });
    expect(checkAccess(policy('full-access'), '/dev/null', 'write', 'file-tool').allowed).toBe(true);
  });
});

describe('denial texts (architecture §3.5)', () => {
  it('escalatable denials name the path, the reason, the tool and the exact retry grant', () => {
    const decision = checkAccess(policy('workspace-write'), path.join(root, 'out.txt'), 'write', 'file-tool', { tool: 'edit' });
    expect(decision.allowed).toBe(false);
    if (decision.allowed) return;
    expect(decision.message).toBe(
      `Permission denied: ${path.join(root, 'out.txt')} is outside the writable roots of this session. To get access, call edit again with sandboxPermissions {"paths":[{"path":"${path.join(root, 'out.txt')}","access":"write","scope":"exact"}]} and a one-line justification; the user will be asked.`,
    );
    expect(decision.suggestedGrant).toEqual({ path: path.join(root, 'out.txt'), access: 'write', scope: 'exact' });
  });

  it('without a tool name the text keeps the {tool} slot for the caller', () => {
    const decision = checkAccess(policy('workspace-write'), path.join(home, '.ssh/id_rsa'), 'read', 'file-tool');
    expect(decision.allowed).toBe(false);
    if (!decision.allowed) expect(decision.message).toContain(`call ${toolSlot} again`);
  });

  it('hard-protected denials are final and not marked sandbox_denied', () => {
    const decision = checkAccess(policy('full-access'), path.join(ws, '.openwork/x'), 'write', 'file-tool', { tool: 'write' });
    expect(decision).toEqual({
      allowed: false,
      path: path.join(ws, '.openwork/x'),
      access: 'write',
      tier: 'hard-protected',
      sandboxDenied: false,
      message: `Permission denied: ${path.join(ws, '.openwork/x')} is protected and cannot be changed by tools.`,
    });
  });
});

describe('git in workspace-write', () => {
  it('git init && git add . && git commit: every file git writes under .git is writable except hooks/ and config', async () => {
    const repo = path.join(ws, 'repo');
    await fs.mkdir(repo);
    await fs.writeFile(path.join(repo, 'a.txt'), 'a\n');
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: repo,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' },
      });
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-q', '-m', 'first');
    const written: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else written.push(full);
      }
    };
    await walk(path.join(repo, '.git'));
    // Lock files git creates and renames away during the commit.
    const locks = ['index.lock', 'HEAD.lock', 'refs/heads/main.lock', 'logs/HEAD', 'COMMIT_EDITMSG', 'ORIG_HEAD'].map((name) => path.join(repo, '.git', name));
    const p = createSandboxPolicy({ workspaceRoots: [repo], homeDirectory: home, tempRoots: [] });
    const denied: string[] = [];
    for (const file of [...written, ...locks]) {
      if (!checkAccess(p, file, 'write', 'process').allowed) denied.push(path.relative(repo, file));
    }
    expect(written.some((file) => file.includes('/objects/'))).toBe(true);
    expect(written).toContain(path.join(repo, '.git/index'));
    expect(written).toContain(path.join(repo, '.git/refs/heads/main'));
    expect(denied.every((file) => file === '.git/config' || file.startsWith('.git/hooks/'))).toBe(true);
    expect(denied).toContain('.git/config');
    expect(checkAccess(p, path.join(repo, '.git/hooks'), 'write', 'process').allowed).toBe(false);
    expect(checkAccess(p, path.join(repo, '.git/config.lock'), 'write', 'process').allowed).toBe(true);
  });
});

describe('one call only', () => {
  it('withGrants returns a new policy and leaves the session policy untouched', () => {
    const base = policy('workspace-write');
    const widened = withGrants(base, [{ path: path.join(root, 'out'), access: 'write', scope: 'subtree' }]);
    expect(checkAccess(widened, path.join(root, 'out/x'), 'write', 'file-tool').allowed).toBe(true);
    expect(checkAccess(base, path.join(root, 'out/x'), 'write', 'file-tool').allowed).toBe(false);
    expect(base.grants).toEqual([]);
    expect(Object.isFrozen(widened)).toBe(true);
  });
});
