import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapBackend, SandboxUnavailableError, checkAccess, createSandboxPolicy, detectSandboxDenial } from '../index.js';
import type { SandboxMode, SandboxPolicy, PathGrant } from '../index.js';
import { listTree, makeTempDirectory, refusedPaths, requireBubblewrap, runWrapped } from './test-support/run-wrapped.js';

const backend = new BubblewrapBackend();
let root: string;
let home: string;
let workspace: string;
let temp: string;
let outside: string;

beforeAll(async () => {
  await requireBubblewrap();
  root = await makeTempDirectory('ow-bwrap-backend-');
  home = path.join(root, 'home');
  workspace = path.join(root, 'ws');
  temp = path.join(root, 'tmp');
  outside = path.join(root, 'outside');
  for (const directory of [home, workspace, temp, outside]) await fs.mkdir(directory);
  await fs.mkdir(path.join(home, '.ssh'));
  await fs.writeFile(path.join(home, '.ssh/id_ed25519'), 'PRIVATE KEY\n');
  await fs.writeFile(path.join(home, '.netrc'), 'machine example.com password hunter2\n');
  await fs.writeFile(path.join(home, '.bashrc'), '# bashrc\n');
  await fs.mkdir(path.join(home, '.openwork/spill/session-1'), { recursive: true });
  await fs.writeFile(path.join(home, '.openwork/spill/session-1/call-1.txt'), 'spilled\n');
  await fs.writeFile(path.join(outside, 'notes.txt'), 'outside\n');
  await fs.writeFile(path.join(workspace, 'README.md'), 'hello\n');
});

afterAll(async () => {
  if (root !== undefined) await fs.rm(root, { recursive: true, force: true });
});

function policyOptions(mode: SandboxMode, grants: readonly PathGrant[] = []) {
  return { mode, workspaceRoots: [workspace], homeDirectory: home, tempRoots: [temp], grants };
}

function policy(mode: SandboxMode, grants: readonly PathGrant[] = []): SandboxPolicy {
  return createSandboxPolicy(policyOptions(mode, grants));
}

async function bash(script: string, sandboxPolicy: SandboxPolicy, cwd = workspace) {
  return runWrapped(backend.wrap({ argv: ['/bin/bash', '-c', script], cwd }, sandboxPolicy), cwd);
}

async function readOrNull(file: string): Promise<string | null> {
  return fs.readFile(file, 'utf8').catch(() => null);
}

describe('BubblewrapBackend', () => {
  it('reports itself available when bwrap runs here', async () => {
    expect(backend.kind).toBe('bubblewrap');
    await expect(backend.selfCheck()).resolves.toEqual({ available: true });
  });

  it('reports a missing bwrap binary as unavailable with the ENOENT reason and then refuses to wrap', async () => {
    const missing = new BubblewrapBackend({ bwrapPath: path.join(root, 'no-such-dir/bwrap') });
    const availability = await missing.selfCheck();
    expect(availability.available).toBe(false);
    expect(availability.available ? '' : availability.reason).toMatch(/not installed.*ENOENT/);
    expect(() => missing.wrap({ argv: ['true'], cwd: workspace }, policy('workspace-write'))).toThrow(SandboxUnavailableError);
  });

  it('reports bwrap rejecting its arguments as unavailable with bwrap’s own stderr', async () => {
    // A bwrap that is handed an option it does not know, like an older bwrap would be.
    const wrapper = path.join(root, 'bwrap-with-bad-option');
    await fs.writeFile(wrapper, '#!/bin/sh\nexec /usr/bin/bwrap --no-such-option "$@"\n', { mode: 0o755 });
    const availability = await new BubblewrapBackend({ bwrapPath: wrapper }).selfCheck();
    expect(availability).toEqual({ available: false, reason: expect.stringMatching(/exit 1\): bwrap: Unknown option --no-such-option/) });
  });

  it('rejects a relative bwrap path and a relative working directory as programmer errors', () => {
    expect(() => new BubblewrapBackend({ bwrapPath: 'bwrap' })).toThrow(/absolute/);
    expect(() => backend.wrap({ argv: ['true'], cwd: 'ws' }, policy('read-only'))).toThrow(/absolute/);
  });

  it('acc_10c bash runs under the policy of this call', async () => {
    const target = path.join(workspace, 'acc-10c.txt');
    const script = `echo written > ${target}; cat ${home}/.ssh/id_ed25519`;

    const readOnly = await bash(script, policy('read-only'));
    expect(readOnly.code).not.toBe(0);
    expect(readOnly.stderr).toMatch(/Read-only file system/);
    expect(await readOrNull(target)).toBeNull();

    const workspaceWrite = await bash(script, policy('workspace-write'));
    expect(workspaceWrite.stdout).not.toContain('PRIVATE KEY');
    expect(await readOrNull(target)).toBe('written\n');

    const granted = await bash(script, policy('workspace-write', [{ path: path.join(home, '.ssh'), access: 'read', scope: 'subtree' }]));
    expect(granted.code).toBe(0);
    expect(granted.stdout).toBe('PRIVATE KEY\n');
  });

  it('keeps credentials unreadable and unwritable, also in full-access', async () => {
    for (const mode of ['workspace-write', 'full-access'] as const) {
      const result = await bash(
        [
          `cat ${home}/.ssh/id_ed25519`,
          `ls -A ${home}/.ssh`,
          `cat ${home}/.netrc`,
          `echo evil > ${home}/.ssh/authorized_keys`,
          `echo evil >> ${home}/.netrc`,
          'echo done',
        ].join('; '),
        policy(mode),
      );
      expect(result.stdout).toBe('done\n'); // nothing listed, nothing read
      // Every access fails with an error denial detection recognises, none with "No such file".
      expect(result.stderr.trim().split('\n')).toEqual([
        `cat: ${home}/.ssh/id_ed25519: Permission denied`,
        `ls: cannot open directory '${home}/.ssh': Permission denied`,
        `cat: ${home}/.netrc: Permission denied`,
        `/bin/bash: line 1: ${home}/.ssh/authorized_keys: Permission denied`,
        `/bin/bash: line 1: ${home}/.netrc: Permission denied`,
      ]);
      expect(await readOrNull(path.join(home, '.ssh/authorized_keys'))).toBeNull();
      expect(await readOrNull(path.join(home, '.netrc'))).toBe('machine example.com password hunter2\n');
      expect(await fs.readdir(path.join(home, '.ssh'))).toEqual(['id_ed25519']);
    }
  });

  it('keeps the OpenWork home read-only in every mode and whatever the grant (acc_26 at kernel level)', async () => {
    const spill = path.join(home, '.openwork/spill/session-1/call-1.txt');
    const grants: PathGrant[] = [{ path: path.join(home, '.openwork'), access: 'write', scope: 'subtree' }];
    for (const mode of ['workspace-write', 'full-access'] as const) {
      // §3.8: a spill folder is readable by its own session only (`sessionSpillDirectory`).
      const own = createSandboxPolicy({ ...policyOptions(mode, grants), sessionSpillDirectory: path.dirname(spill) });
      const result = await bash(`cat ${spill} && echo overwritten > ${spill}`, own);
      expect(result.stdout).toBe('spilled\n');
      expect(result.stderr).toMatch(/Read-only file system/);
      expect(await readOrNull(spill)).toBe('spilled\n');
    }
  });

  it('protects sensitive names that do not exist yet: nothing of them reaches the host, and the refusal is reported', async () => {
    const before = await listTree(workspace);
    const result = await bash(
      'echo a > .envrc; mkdir -p .vscode/x; echo b > .vscode/settings.json; mkdir -p .idea; echo ok > plain.txt',
      policy('workspace-write'),
    );
    // Staged writes (architecture §3.10): the command saw its writes; release() applied only plain.txt.
    expect(result.code).toBe(0);
    expect(await readOrNull(path.join(workspace, 'plain.txt'))).toBe('ok\n');
    const after = await listTree(workspace);
    expect(after).toEqual([...before, 'f plain.txt'].sort());
    expect(refusedPaths(result).sort()).toEqual(['.envrc', '.idea', '.vscode'].map((name) => path.join(workspace, name)));
    expect(result.staged?.refused.find((refusal) => refusal.path.endsWith('/.vscode'))?.entriesBelow).toBe(2);
    expect(result.notices.join('\n')).toMatch(/\[not applied: 3 changes the sandbox rules refused/);
    expect(result.notices.join('\n')).toContain(`- create ${path.join(workspace, '.envrc')}: Permission denied: ${path.join(workspace, '.envrc')} is a sensitive path`);
    await fs.rm(path.join(workspace, 'plain.txt'));
  });

  it('cannot regain write access by remounting: capabilities are dropped even for root', async () => {
    const result = await bash(`mount -o remount,bind,rw / ; echo escaped > ${outside}/escaped.txt; grep CapEff /proc/self/status`, policy('workspace-write'));
    expect(result.stdout).toMatch(/CapEff:\s+0+\n/);
    expect(await readOrNull(path.join(outside, 'escaped.txt'))).toBeNull();
  });

  it('kernel settings under /proc/sys stay read-only for the capability-less root inside', async () => {
    // Writes back the value that is already there, so that the test is harmless if the kernel lets it through.
    for (const mode of ['read-only', 'workspace-write', 'full-access'] as const) {
      const result = await bash(
        'value=$(cat /proc/sys/kernel/core_pattern) && printf "%s\\n" "$value" > /proc/sys/kernel/core_pattern && echo WRITTEN',
        policy(mode),
      );
      expect(result.stdout).not.toContain('WRITTEN');
      expect(result.stderr).toMatch(/core_pattern: Read-only file system/);
    }
  });

  it('a protected name cannot be escaped by renaming a directory above it or replacing the file that hides it', async () => {
    const repository = path.join(workspace, 'renamed-repo');
    await fs.mkdir(path.join(repository, '.git/hooks'), { recursive: true });
    await fs.writeFile(path.join(repository, '.git/config'), '[core]\n');
    const worktree = path.join(workspace, 'worktree');
    await fs.mkdir(worktree);
    await fs.writeFile(path.join(worktree, '.git'), 'gitdir: /nowhere\n');
    const fresh = path.join(workspace, 'fresh-repo');
    await fs.mkdir(fresh);
    const evilRepository = 'mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit; echo "[core] fsmonitor = evil" > .git/config';
    const repositories = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [repository, worktree, fresh], homeDirectory: home, tempRoots: [temp] });
    try {
      // Staged writes (architecture §3.10): inside, the rename and the plant succeed; release()
      // judges the final state, so .git keeps its config and hooks and the plant never reaches the host.
      const renamed = await bash(`cd ${repository} && mv .git .git-old; ${evilRepository}`, repositories);
      expect(await readOrNull(path.join(repository, '.git/config'))).toBe('[core]\n');
      expect(await fs.readdir(path.join(repository, '.git/hooks'))).toEqual([]);
      expect(refusedPaths(renamed)).toEqual(expect.arrayContaining([path.join(repository, '.git/config'), path.join(repository, '.git/hooks/pre-commit')]));
      // What mv copied aside is an ordinary folder git never reads as the repository.
      expect((await fs.readdir(repository)).filter((name) => name !== '.git-old')).toEqual(['.git']);

      const replaced = await bash(`cd ${worktree} && rm -f .git; ${evilRepository}`, repositories);
      expect(await readOrNull(path.join(worktree, '.git'))).toBe('gitdir: /nowhere\n');
      expect(refusedPaths(replaced)).toContain(path.join(worktree, '.git'));

      // .git did not exist: the new repository's folder may be made, its hook and config may not.
      const created = await bash(`cd ${fresh} && mv .git .git-old; ${evilRepository}`, repositories);
      expect(await readOrNull(path.join(fresh, '.git/hooks/pre-commit'))).toBeNull();
      expect(await readOrNull(path.join(fresh, '.git/config'))).toBeNull();
      // A new hooks folder holding nothing but the hook is refused whole, with what the command put in it.
      expect(created.staged?.refused.map((refusal) => [refusal.path, refusal.entriesBelow])).toEqual(
        expect.arrayContaining([
          [path.join(fresh, '.git/config'), undefined],
          [path.join(fresh, '.git/hooks'), 1],
        ]),
      );

      // full-access stages too: moving home away (a copy, then removals judged entry by entry) keeps
      // the shell start-up files and the OpenWork home where they are, and what was written there out.
      const movedHome = await bash(
        `mv ${home} ${home}.old; mkdir -p ${home}/.openwork; echo evil > ${home}/.bashrc; echo evil > ${home}/.openwork/config`,
        policy('full-access'),
      );
      expect(refusedPaths(movedHome)).toEqual(expect.arrayContaining([path.join(home, '.bashrc'), path.join(home, '.openwork/config')]));
      expect(await readOrNull(path.join(home, '.bashrc'))).toBe('# bashrc\n');
      expect(await readOrNull(path.join(home, '.openwork/config'))).toBeNull();
      expect(await readOrNull(path.join(home, '.openwork/spill/session-1/call-1.txt'))).toBe('spilled\n');
      expect(await readOrNull(path.join(home, '.ssh/id_ed25519'))).toBe('PRIVATE KEY\n');
    } finally {
      // What mv copied is the command's; home itself never moved.
      await fs.rm(`${home}.old`, { recursive: true, force: true });
      for (const directory of [repository, worktree, fresh]) await fs.rm(directory, { recursive: true, force: true });
    }
  });

  it('binds the host /tmp as a temp root, so files written there are visible outside', async () => {
    const hostTemp = await makeTempDirectory('ow-bwrap-hosttmp-');
    try {
      const withHostTmp = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, tempRoots: ['/tmp'] });
      const result = await bash(`echo spilled > ${hostTemp}/out.txt`, withHostTmp);
      expect(result.code).toBe(0);
      expect(await readOrNull(path.join(hostTemp, 'out.txt'))).toBe('spilled\n');
    } finally {
      await fs.rm(hostTemp, { recursive: true, force: true });
    }
  });

  it('git init without grants gives a repository without hooks or program-running config; a hook needs a grant; add/commit keep working', async () => {
    const repository = path.join(workspace, 'repo');
    await fs.mkdir(repository);
    await fs.writeFile(path.join(repository, 'a.txt'), 'a\n');
    const repositoryPolicy = (grants: readonly PathGrant[] = []) =>
      createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [repository], homeDirectory: home, tempRoots: [temp], grants });
    const identity = '-c user.email=agent@example.com -c user.name=agent';
    const config = path.join(repository, '.git/config');
    const hooks = path.join(repository, '.git/hooks');

    // Staged writes (architecture §3.10) replace "denied like on macOS": the new repository reaches
    // the host with a config of harmless keys only and the hook samples git never runs.
    const first = await bash(`git init -q && git add . && git ${identity} commit -q -m first && git log --oneline | wc -l`, repositoryPolicy(), repository);
    expect(first.stderr).toBe('');
    expect(first.stdout.trim()).toBe('1');
    expect(refusedPaths(first)).toEqual([]);
    expect((await fs.readdir(hooks)).filter((name) => !name.endsWith('.sample'))).toEqual([]);
    expect(await readOrNull(config)).toMatch(/repositoryformatversion/);
    expect(checkAccess(repositoryPolicy(), config, 'write', 'process').allowed).toBe(false); // the file tools still ask

    // Later calls without grants: add/commit work, a hook and program-running config are refused and reported.
    for (const sample of await fs.readdir(hooks)) await fs.rm(path.join(hooks, sample));
    const configBefore = await readOrNull(config);
    const second = await bash(
      `echo b > b.txt && git add . && git ${identity} commit -q -m second && git log --oneline | wc -l; ` +
        'echo "#!/bin/sh" > .git/hooks/post-commit; echo "[core] fsmonitor = evil" >> .git/config',
      repositoryPolicy(),
      repository,
    );
    expect(second.stdout.trim()).toBe('2');
    expect(refusedPaths(second).sort()).toEqual([config, path.join(hooks, 'post-commit')].sort());
    const denial = second.notices.join('\n');
    expect(denial).toContain(`- create ${path.join(hooks, 'post-commit')}: Permission denied: ${path.join(hooks, 'post-commit')} is a sensitive path`);
    expect(denial).toMatch(/"access":"write","scope":"exact"/); // the escalation hint
    expect(await fs.readdir(hooks)).toEqual([]);
    expect(await readOrNull(config)).toBe(configBefore);

    // With the grants a user approves for it, the same hook reaches the host.
    const grants: PathGrant[] = [
      { path: config, access: 'write', scope: 'exact' },
      { path: hooks, access: 'write', scope: 'subtree' },
    ];
    const granted = await bash('echo "#!/bin/sh" > .git/hooks/post-commit', repositoryPolicy(grants), repository);
    expect(granted.staged?.refused).toEqual([]);
    expect(await readOrNull(path.join(hooks, 'post-commit'))).toBe('#!/bin/sh\n');
  });

  it('a write grant on a file that does not exist yet lets the command create it, and nothing else', async () => {
    const granted = path.join(outside, 'granted/new.txt');
    // Staged writes create nothing on the host for a missing name: the command makes the folder itself.
    const result = await bash(
      `mkdir -p ${outside}/granted && echo created > ${granted}; echo nope > ${outside}/granted/other.txt; echo nope > ${outside}/other.txt`,
      policy('workspace-write', [{ path: granted, access: 'write', scope: 'exact' }]),
    );
    expect(await readOrNull(granted)).toBe('created\n');
    expect((await fs.readdir(path.join(outside, 'granted'))).sort()).toEqual(['new.txt']);
    expect(await readOrNull(path.join(outside, 'other.txt'))).toBeNull();
    expect(refusedPaths(result).sort()).toEqual([path.join(outside, 'granted/other.txt'), path.join(outside, 'other.txt')]);
    await fs.rm(path.join(outside, 'granted'), { recursive: true });

    // Granted but left empty: nothing appears on the host.
    await bash('true', policy('workspace-write', [{ path: granted, access: 'write', scope: 'exact' }]));
    await expect(fs.stat(path.join(outside, 'granted'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
