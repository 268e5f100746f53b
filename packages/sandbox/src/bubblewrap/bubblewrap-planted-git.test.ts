import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapBackend, checkAccess, createSandboxPolicy } from '../index.js';
import type { SandboxPolicy, SandboxReleaseReport } from '../index.js';
import type { StagedReleaseReport } from '../staging/wrap-staged.js';
import { makeTempDirectory, requireBubblewrap, sandboxedEnvironment, spawnSandboxed } from './test-support/run-wrapped.js';

// Architecture §3.7 "planted code": sandboxed commands (the public
// BubblewrapBackend on the real kernel) try to leave a program that the USER's git runs later;
// then the user's own git runs on the host, unsandboxed, and no planted program may have run.
// Each attack is first shown to work on an unprotected copy, so that no test passes vacuously.

const backend = new BubblewrapBackend();
let scratch: string;

beforeAll(async () => {
  await requireBubblewrap();
  scratch = await makeTempDirectory('ow-planted-git-');
});

afterAll(async () => {
  if (scratch !== undefined) await fs.rm(scratch, { recursive: true, force: true });
});

interface Parts {
  readonly base: string;
  readonly home: string;
  readonly workspace: string;
  readonly temp: string;
  readonly marker: string;
}

async function fixture(name: string): Promise<Parts> {
  const base = path.join(scratch, name);
  const parts = { base, home: path.join(base, 'home'), workspace: path.join(base, 'ws'), temp: path.join(base, 'tmp'), marker: path.join(base, 'planted-program-ran') };
  for (const directory of [parts.home, parts.workspace, parts.temp]) await fs.mkdir(directory, { recursive: true });
  return parts;
}

const identity = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@openwork.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@openwork.invalid' };

/** The user's git on the host, unsandboxed, in a temp HOME; failures are fine (only what it ran counts). */
function userGit(cwd: string, home: string, args: readonly string[], options: { terminal?: boolean } = {}): string {
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C', TERM: 'dumb', ...identity };
  // A pager runs only on a terminal: `script` gives git one, as the user's own terminal would.
  const result = options.terminal
    ? spawnSync('script', ['-qec', ['git', ...args].map((word) => `'${word}'`).join(' '), '/dev/null'], { cwd, env, encoding: 'utf8', timeout: 20_000 })
    : spawnSync('git', args, { cwd, env, encoding: 'utf8', timeout: 20_000 });
  return `${result.stdout}${result.stderr}`;
}

/** Everything a person does with git in a workspace, as plain commands (a shell prompt runs `status` on every prompt). */
function userRunsEverything(cwd: string, home: string): void {
  const commands: string[][] = [
    ['status'],
    ['status', '--porcelain=2', '--ignore-submodules=none'],
    ['diff'],
    ['diff', 'HEAD'],
    ['add', '-A'],
    ['commit', '-q', '-m', 'user commit'],
    ['fetch', '--recurse-submodules=yes'],
    ['pull', '--no-rebase', '--recurse-submodules=yes'],
    ['submodule', 'update', '--init', '--recursive'],
    ['submodule', 'foreach', 'true'],
    ['log', '-1'],
  ];
  for (const args of commands) userGit(cwd, home, args);
  for (const args of [['log', '-1'], ['diff', 'HEAD~1'], ['status']]) userGit(cwd, home, args, { terminal: true });
}

async function readOrNull(file: string): Promise<string | null> {
  return fs.readFile(file, 'utf8').catch(() => null);
}

async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(() => true, () => false);
}

/** Run `script` in the sandbox through the public backend; returns the release report too. */
async function sandboxed(script: string, policy: SandboxPolicy, cwd: string): Promise<{ stdout: string; stderr: string; notices: readonly string[]; refused: string[] }> {
  const identified = `export ${Object.entries(identity).map(([name, value]) => `${name}=${value}`).join(' ')}\n${script}`;
  const wrapped = backend.wrap({ argv: ['/bin/bash', '-c', identified], cwd }, policy);
  let report: SandboxReleaseReport | void = undefined;
  try {
    const { child, closed } = spawnSandboxed(wrapped.argv, cwd, 'ignore', 60_000);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await closed;
    report = await wrapped.release();
    const staged = report !== undefined && 'staged' in report ? (report as StagedReleaseReport).staged : undefined;
    return { stdout, stderr, notices: report?.notices ?? [], refused: (staged?.refused ?? []).map((refusal) => refusal.path) };
  } catch (error) {
    await wrapped.release().catch(() => undefined);
    throw error;
  }
}

/** The same script unsandboxed: the control that proves an attack real. */
function unprotected(script: string, cwd: string): void {
  execFileSync('/bin/bash', ['-c', script], { cwd, env: { ...sandboxedEnvironment(cwd), ...identity, GIT_CONFIG_NOSYSTEM: '1' }, stdio: 'ignore' });
}

async function userRepository(directory: string, home: string): Promise<void> {
  await fs.mkdir(directory, { recursive: true });
  await fs.writeFile(path.join(directory, 'a.txt'), 'a\n');
  userGit(directory, home, ['init', '-q', '-b', 'main']);
  userGit(directory, home, ['add', '.']);
  userGit(directory, home, ['commit', '-q', '-m', 'first']);
}

function policyFor(parts: Parts, options: { workspace?: string } = {}): SandboxPolicy {
  return createSandboxPolicy({ workspaceRoots: [options.workspace ?? parts.workspace], homeDirectory: parts.home, tempRoots: [parts.temp] });
}

/** A nested repository with `key = value` in its config, committed and recorded as a gitlink. */
function plantGitlink(directory: string, key: string, value: string): string {
  return [
    `git init -q -b main ${directory}`,
    `git -C ${directory} config '${key}' '${value}'`,
    `echo x > ${directory}/x.txt && git -C ${directory} add x.txt && git -C ${directory} commit -q -m x`,
    `echo changed > ${directory}/x.txt`,
    `git add ${directory}`,
  ].join(' && ');
}

describe('planted code through gitlinks', () => {
  it('a nested repository with core.fsmonitor recorded as a gitlink keeps it out of the host (staged writes: refused at release, the repository stays), and the user’s git status, diff, add, commit, fetch, pull, submodule update and log run nothing', async () => {
    const parts = await fixture('gitlink-fsmonitor');
    const origin = path.join(parts.base, 'origin.git');
    await userRepository(parts.workspace, parts.home);
    userGit(parts.base, parts.home, ['clone', '-q', '--bare', parts.workspace, origin]);
    userGit(parts.workspace, parts.home, ['remote', 'add', 'origin', origin]);
    userGit(parts.workspace, parts.home, ['fetch', '-q', 'origin']);
    userGit(parts.workspace, parts.home, ['branch', '-q', '--set-upstream-to=origin/main']);
    const attack = plantGitlink('vendor/lib', 'core.fsmonitor', `touch ${parts.marker}; false`);

    const control = path.join(parts.base, 'control');
    await userRepository(control, parts.home);
    unprotected(attack, control);
    userGit(control, parts.home, ['status']);
    expect(await exists(parts.marker), 'the attack works without the sandbox').toBe(true);
    await fs.rm(parts.marker);

    const run = await sandboxed(`${attack} && echo planted`, policyFor(parts), parts.workspace);
    expect(run.stdout).toBe('planted\n');
    // Staged writes (architecture §3.10) replace the post-call audit: nothing unjudged reaches the host,
    // so the repository stays where it is and only its config (and new hooks folder) are refused.
    const config = path.join(parts.workspace, 'vendor/lib/.git/config');
    expect(run.refused).toContain(config);
    expect(run.refused.every((refused) => refused === config || refused.endsWith('/.git/hooks')), run.refused.join(', ')).toBe(true);
    expect(run.notices.join('\n')).toContain(`- create ${config}: Permission denied: ${config} is a sensitive path`);
    expect(await exists(path.join(parts.workspace, 'vendor/lib/.git/HEAD'))).toBe(true);
    expect(await exists(config)).toBe(false);
    userRunsEverything(parts.workspace, parts.home);
    userRunsEverything(path.join(parts.workspace, 'vendor'), parts.home);
    expect(await exists(parts.marker)).toBe(false);
  });

  it('every kind of program-running configuration in a planted gitlink repository is recognised (an allowlist), and none of it runs', async () => {
    const parts = await fixture('gitlink-keys');
    await userRepository(parts.workspace, parts.home);
    const run = `touch ${parts.marker}`;
    const keys: Array<[string, string]> = [
      ['core.fsmonitor', run], ['core.hooksPath', '../hooks'], ['core.pager', run], ['core.editor', run], ['core.sshCommand', run],
      ['core.askPass', run], ['core.gitProxy', run], ['core.alternateRefsCommand', run], ['diff.external', run], ['diff.x.textconv', run],
      ['diff.x.command', run], ['filter.x.clean', run], ['filter.x.smudge', run], ['filter.x.process', run], ['merge.x.driver', run],
      ['include.path', '../evil.gitconfig'], ['includeIf.gitdir:/.path', '../evil.gitconfig'], ['credential.helper', `!${run}`],
      ['gpg.program', run], ['gpg.ssh.program', run], ['sequence.editor', run], ['uploadpack.packObjectsHook', run],
      ['protocol.ext.allow', 'always'], ['remote.origin.uploadpack', run], ['remote.origin.receivepack', run], ['remote.origin.vcs', 'x'],
      ['alias.st', `!${run}`], ['ssh.variant', 'ssh'], ['pager.status', run], ['interactive.diffFilter', run], ['mergetool.x.cmd', run],
      ['difftool.x.cmd', run], ['web.browser', 'x'], ['browser.x.cmd', run], ['fsmonitor.socketdir', '/x'], ['someFuture.key', run],
      ['core.worktreeX', run], ['remote.url', run],
    ];
    const script = keys.map(([key, value], index) => plantGitlink(`repos/r${index}`, key, value));
    // Hooks and redirections, without any configuration: a hook git runs by name, commondir, config.worktree.
    script.push(`git init -q repos/hook && printf '#!/bin/sh\\ntouch ${parts.marker}\\n' > repos/hook/.git/hooks/post-checkout && chmod +x repos/hook/.git/hooks/post-checkout && git -C repos/hook commit -q --allow-empty -m x && git add repos/hook`);
    script.push(`git init -q --bare evil-common.git && git -C evil-common.git config core.fsmonitor 'touch ${parts.marker}' && git init -q repos/common && git -C repos/common commit -q --allow-empty -m x && git add repos/common && echo ../../../evil-common.git > repos/common/.git/commondir`);
    script.push(`git init -q repos/worktree && printf '[core]\\n\\tfsmonitor = touch ${parts.marker}\\n' > repos/worktree/.git/config.worktree && git -C repos/worktree commit -q --allow-empty -m x && git add repos/worktree`);
    const result = await sandboxed(`${script.join('\n')}\necho done`, policyFor(parts), parts.workspace);
    expect(result.stdout).toBe('done\n');
    // Staged writes: each planted repository's config is refused at release (an allow-list of keys), its
    // hook, commondir and config.worktree too; the repositories themselves (and their hook samples) stay.
    const repos = path.join(parts.workspace, 'repos');
    keys.forEach(([key], index) => {
      expect(result.refused, key).toContain(path.join(repos, `r${index}/.git/config`));
    });
    expect(result.refused).toContain(path.join(repos, 'hook/.git/hooks/post-checkout'));
    expect(result.refused).toContain(path.join(repos, 'common/.git/commondir'));
    expect(result.refused).toContain(path.join(repos, 'worktree/.git/config.worktree'));
    expect(await exists(path.join(repos, 'hook/.git/hooks/post-checkout'))).toBe(false);
    expect(await exists(path.join(repos, 'common/.git/commondir'))).toBe(false);
    expect(await exists(path.join(repos, 'worktree/.git/config.worktree'))).toBe(false);
    userRunsEverything(parts.workspace, parts.home);
    expect(await exists(parts.marker)).toBe(false);
  });

  it('a plain nested repository (git init, git clone) stays where it is, and one the user made keeps its own configuration', async () => {
    const parts = await fixture('gitlink-plain');
    await userRepository(parts.workspace, parts.home);
    // The user's own embedded repository with their settings, recorded as a gitlink before the session.
    await userRepository(path.join(parts.workspace, 'tools/own'), parts.home);
    userGit(path.join(parts.workspace, 'tools/own'), parts.home, ['config', 'core.pager', 'less -R']);
    userGit(parts.workspace, parts.home, ['add', 'tools/own']);
    userGit(parts.workspace, parts.home, ['commit', '-q', '-m', 'own tool']);
    const policy = policyFor(parts);
    expect(checkAccess(policy, path.join(parts.workspace, 'tools/own/.git/config'), 'write', 'process').allowed).toBe(false);
    const result = await sandboxed(
      [
        `git init -q -b main vendor/plain && git -C vendor/plain commit -q --allow-empty -m x && git add vendor/plain`,
        `git clone -q ${path.join(parts.workspace, 'tools/own')} vendor/clone && git add vendor/clone`,
        `git -C tools/own config core.fsmonitor 'touch ${parts.marker}'`,
        'echo done',
      ].join('; '),
      policy,
      parts.workspace,
    );
    expect(result.stdout).toBe('done\n');
    // Staged writes: the user's config change is refused at release; the new repositories arrive
    // whole (init, clone: a harmless config and the hook samples git never runs).
    const own = path.join(parts.workspace, 'tools/own/.git/config');
    expect(result.refused).toEqual([own]);
    for (const name of ['vendor/plain', 'vendor/clone']) {
      const hooks = await fs.readdir(path.join(parts.workspace, name, '.git/hooks'));
      expect(hooks.length, name).toBeGreaterThan(0);
      expect(hooks.filter((hook) => !hook.endsWith('.sample')), name).toEqual([]);
    }
    expect(userGit(path.join(parts.workspace, 'vendor/clone'), parts.home, ['config', 'remote.origin.url'])).toBe(`${path.join(parts.workspace, 'tools/own')}\n`);
    for (const name of ['vendor/plain/.git', 'vendor/clone/.git', 'tools/own/.git']) expect(await exists(path.join(parts.workspace, name)), name).toBe(true);
    expect(userGit(path.join(parts.workspace, 'tools/own'), parts.home, ['config', 'core.pager'])).toBe('less -R\n');
    userRunsEverything(parts.workspace, parts.home);
    expect(await exists(parts.marker)).toBe(false);
  });

  it('a gitlink chain deeper than the old audit checked (9 repositories): staged writes refuse the deepest config, at any depth', async () => {
    const parts = await fixture('gitlink-deep');
    await userRepository(parts.workspace, parts.home);
    const script = [
      'd=chain; list=()',
      'for i in 1 2 3 4 5 6 7 8 9; do d=$d/r$i; list+=($d); git init -q $d; done',
      `git -C \${list[8]} config core.fsmonitor 'touch ${parts.marker}' && git -C \${list[8]} commit -q --allow-empty -m x`,
      'for i in 7 6 5 4 3 2 1 0; do git -C ${list[$i]} add r$((i+2)) && git -C ${list[$i]} commit -q -m x; done',
      'git add ${list[0]} && echo chained',
    ].join('\n');
    const result = await sandboxed(script, policyFor(parts), parts.workspace);
    expect(result.stdout).toBe('chained\n');
    const deepest = path.join(parts.workspace, 'chain/r1/r2/r3/r4/r5/r6/r7/r8/r9/.git');
    expect(result.refused).toContain(path.join(deepest, 'config'));
    // The other configs are git init's harmless ones: only the new hooks folders stay out besides.
    expect(result.refused.filter((refused) => refused !== path.join(deepest, 'config')).every((refused) => refused.endsWith('/.git/hooks'))).toBe(true);
    expect(await exists(path.join(deepest, 'HEAD'))).toBe(true);
    expect(await exists(path.join(deepest, 'config'))).toBe(false);
    userRunsEverything(parts.workspace, parts.home);
    expect(await exists(parts.marker)).toBe(false);
  });

  it('.git/modules cannot be planted: git submodule update finds no module directory of the command’s (submodule.active = .)', async () => {
    const parts = await fixture('modules');
    await userRepository(parts.workspace, parts.home);
    const library = path.join(parts.base, 'library');
    await userRepository(library, parts.home);
    userGit(parts.workspace, parts.home, ['config', 'submodule.active', '.']); // what git clone --recurse-submodules sets
    const commit = userGit(library, parts.home, ['rev-parse', 'HEAD']).trim();
    const attack = [
      `mkdir -p .git/modules/evil/hooks && git clone -q --bare ${library} .git/modules/evil/x`,
      `printf '#!/bin/sh\\ntouch ${parts.marker}\\n' > .git/modules/evil/hooks/post-checkout`,
      `printf '[submodule "evil"]\\n\\tpath = vendor/evil\\n\\turl = ${library}\\n' > .gitmodules`,
      `git update-index --add --cacheinfo 160000,${commit},vendor/evil`,
      // A gitlink whose .git file names a git directory of the command's, outside .git/modules.
      `git clone -q --bare ${library} planted.git && printf '[core]\\n\\tfsmonitor = touch ${parts.marker}\\n\\tbare = false\\n\\tworktree = ../vendor/other\\n' > planted.git/config`,
      `mkdir -p vendor/other && echo 'gitdir: ../../planted.git' > vendor/other/.git && git update-index --add --cacheinfo 160000,${commit},vendor/other`,
      'echo done',
    ].join('; ');
    const result = await sandboxed(attack, policyFor(parts), parts.workspace);
    expect(result.stdout).toBe('done\n');
    // Staged writes: .git/modules and the .git file that names a git directory of the command's are refused at release.
    expect(result.refused).toEqual(expect.arrayContaining([path.join(parts.workspace, '.git/modules'), path.join(parts.workspace, 'vendor/other/.git')]));
    expect(await exists(path.join(parts.workspace, '.git/modules'))).toBe(false);
    expect(await exists(path.join(parts.workspace, 'vendor/other/.git'))).toBe(false);
    userRunsEverything(parts.workspace, parts.home);
    expect(await exists(parts.marker)).toBe(false);
  });
});

describe('planted code above the workspace', () => {
  it('a repository planted above a workspace inside a temp root (git init, a bare repository, .git files) cannot be made: HEAD and what a .git holds are refused at release', async () => {
    const parts = await fixture('above');
    const scratchRoot = path.join(parts.temp, 'scratch');
    const project = path.join(scratchRoot, 'proj');
    await fs.mkdir(project, { recursive: true });
    await fs.writeFile(path.join(project, 'a.txt'), 'a\n');
    const seed = path.join(parts.base, 'seed');
    await userRepository(seed, parts.home);
    const attacks = (above: string) => [
      `git init -q ${above} && git -C ${above} config core.fsmonitor 'touch ${parts.marker}'`,
      `git init -q --bare -b main ${above} && git -C ${above} config core.pager 'touch ${parts.marker}' && git -C ${above} fetch -q ${seed} main:main`,
      `echo 'gitdir: ${parts.base}/evil' > ${above}/.git`,
    ];

    for (const [index, attack] of attacks(scratchRoot).entries()) {
      const control = path.join(parts.base, `control-${index}`);
      await fs.mkdir(path.join(control, 'proj'), { recursive: true });
      if (index === 2) unprotected(`rm -rf evil && git clone -q --bare ${seed} evil && git -C evil config core.pager 'touch ${parts.marker}'`, parts.base);
      unprotected(attack.replaceAll(scratchRoot, control), control);
      userGit(path.join(control, 'proj'), parts.home, ['status']);
      userGit(path.join(control, 'proj'), parts.home, ['log'], { terminal: true });
      expect(await exists(parts.marker), `the attack works without the sandbox: ${attack}`).toBe(true);
      await fs.rm(parts.marker);
    }

    const policy = policyFor(parts, { workspace: project });
    const script = [...attacks(scratchRoot), ...attacks(parts.temp)].join('; ');
    const result = await sandboxed(`${script}; echo done`, policy, project);
    expect(result.stdout).toBe('done\n');
    // Staged writes: HEAD above the workspace and everything inside a .git there are refused at release
    // (reported); a .git folder the command made may stay, empty of anything git reads.
    for (const above of [scratchRoot, parts.temp]) {
      for (const name of ['.git', 'HEAD']) {
        expect(checkAccess(policy, path.join(above, name), 'write', 'process').allowed, `${above}/${name}`).toBe(false);
      }
      expect(await exists(path.join(above, 'HEAD')), `${above}/HEAD left behind`).toBe(false);
      expect(result.refused, above).toContain(path.join(above, 'HEAD'));
      const dotGit = await fs.lstat(path.join(above, '.git')).catch(() => undefined);
      if (dotGit !== undefined) {
        expect(dotGit.isDirectory(), `${above}/.git`).toBe(true);
        for (const name of ['HEAD', 'config', 'commondir']) expect(await exists(path.join(above, '.git', name)), `${above}/.git/${name}`).toBe(false);
      }
    }
    userRunsEverything(project, parts.home);
    expect(userGit(project, parts.home, ['status'])).toMatch(/not a git repository/);
    expect(await exists(parts.marker)).toBe(false);
  });

  it('a workspace that is no repository cannot be made a bare repository of the command’s', async () => {
    const parts = await fixture('bare-root');
    await fs.writeFile(path.join(parts.workspace, 'a.txt'), 'a\n');
    const seed = path.join(parts.base, 'seed');
    await userRepository(seed, parts.home);
    const attack = `mkdir -p objects refs && echo 'ref: refs/heads/main' > HEAD && printf '[core]\\n\\tbare = true\\n\\tpager = touch ${parts.marker}\\n' > config && git --git-dir=. fetch -q ${seed} main:main`;
    const control = path.join(parts.base, 'control');
    await fs.mkdir(control);
    unprotected(attack, control);
    userGit(control, parts.home, ['log'], { terminal: true });
    expect(await exists(parts.marker), 'the attack works without the sandbox').toBe(true);
    await fs.rm(parts.marker);

    const result = await sandboxed(`${attack}; echo done`, policyFor(parts), parts.workspace);
    expect(result.stdout).toBe('done\n');
    // Staged writes: the workspace root's config of the command's (a bare repository's) is refused at release.
    expect(result.refused).toContain(path.join(parts.workspace, 'HEAD'));
    expect(await exists(path.join(parts.workspace, 'HEAD'))).toBe(false);
    expect(userGit(parts.workspace, parts.home, ['status'])).toMatch(/not a git repository/);
    userRunsEverything(parts.workspace, parts.home);
    expect(await exists(parts.marker)).toBe(false);
  });
});
