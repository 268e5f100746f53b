import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapBackend } from '../bubblewrap/bubblewrap-backend.js';
import { makeTempDirectory, requireBubblewrap, runWrapped } from '../bubblewrap/test-support/run-wrapped.js';
import { createSandboxPolicy } from '../policy/create-sandbox-policy.js';
import type { StagedApplyReport } from './staged-writes.js';

/**
 * Architecture §3.7 "planted code", §3.10: a prompt-injected command plants a hook, `core.fsmonitor`
 * and `core.pager` in a repository BELOW a writable root (a folder of projects, a repository inside
 * a repository, HOME as the workspace, depth 1–6); the user's own git then runs them. Each layout
 * is first planted unsandboxed as the control (the user's git runs all three), then through the
 * sandbox (it runs none), and `git commit` still works inside the sandbox in that repository.
 */

let base: string;
let backend: BubblewrapBackend;

beforeAll(async () => {
  await requireBubblewrap();
  base = await makeTempDirectory('ow-staged-planted-');
  backend = new BubblewrapBackend();
  expect(await backend.selfCheck()).toEqual({ available: true });
});

afterAll(() => {
  if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
});

let counter = 0;

interface Layout {
  readonly home: string;
  readonly openworkHome: string;
  readonly workspace: string;
  readonly repository: string;
  readonly marker: string;
}

/** The user's git, on the host, with a hermetic configuration (no system or global file). */
function gitEnvironment(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'user',
    GIT_AUTHOR_EMAIL: 'user@example.invalid',
    GIT_COMMITTER_NAME: 'user',
    GIT_COMMITTER_EMAIL: 'user@example.invalid',
    PAGER: 'cat',
    GIT_PAGER: '',
  };
}

function git(cwd: string, home: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: gitEnvironment(home), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A layout: `workspaceOf(home)` is the writable root, `repositoryOf(workspace)` an existing repository below it. */
function makeLayout(workspaceOf: (home: string) => string, repositoryOf: (workspace: string) => string): Layout {
  counter += 1;
  const root = path.join(base, `layout-${counter}`);
  const home = path.join(root, 'home');
  const openworkHome = path.join(root, 'openwork-home');
  fs.mkdirSync(openworkHome, { recursive: true });
  const workspace = workspaceOf(home);
  const repository = repositoryOf(workspace);
  fs.mkdirSync(repository, { recursive: true });
  git(repository, home, 'init', '-q');
  fs.writeFileSync(path.join(repository, 'README'), 'hello\n');
  git(repository, home, 'add', 'README');
  git(repository, home, 'commit', '-qm', 'first');
  return { home, openworkHome, workspace, repository, marker: path.join(root, 'planted-ran') };
}

/** The plant: a hook, core.fsmonitor and core.pager that each leave a line in the marker file. */
function plantScript(layout: Layout): string {
  const program = `printf '#!/bin/sh\\necho ran >> %s\\n' ${JSON.stringify(layout.marker)}`;
  const relative = path.relative(layout.workspace, layout.repository) || '.';
  return [
    `cd ${JSON.stringify(relative)}`,
    `${program} > .git/hooks/pre-commit`,
    'chmod +x .git/hooks/pre-commit',
    `${program} > .git/planted.sh`,
    'chmod +x .git/planted.sh',
    `git config core.fsmonitor "$PWD/.git/planted.sh"`,
    `git config core.pager "$PWD/.git/planted.sh"`,
  ].join(' && ');
}

/** What the user's own git does next: status (fsmonitor), log through a pager, commit (hook). */
function usersGitRuns(layout: Layout): number {
  fs.rmSync(layout.marker, { force: true });
  const { GIT_PAGER: _gitPager, PAGER: _pager, ...env } = gitEnvironment(layout.home);
  spawnSync('git', ['status'], { cwd: layout.repository, env, stdio: 'ignore' });
  spawnSync('git', ['-p', 'log', '-1'], { cwd: layout.repository, env, stdio: 'ignore' });
  fs.appendFileSync(path.join(layout.repository, 'README'), 'more\n');
  spawnSync('git', ['commit', '-qam', 'user commit'], { cwd: layout.repository, env, stdio: 'ignore' });
  return fs.existsSync(layout.marker) ? fs.readFileSync(layout.marker, 'utf8').split('\n').filter(Boolean).length : 0;
}

async function sandboxed(layout: Layout, command: string): Promise<{ code: number | null; stderr: string; staged: StagedApplyReport | undefined }> {
  const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [layout.workspace], homeDirectory: layout.home, openworkHome: layout.openworkHome });
  const wrapped = backend.wrap({ argv: ['/bin/bash', '-c', command], cwd: layout.workspace }, policy);
  let staged: StagedApplyReport | undefined;
  const release = wrapped.release.bind(wrapped);
  const run = await runWrapped(
    {
      argv: wrapped.argv,
      release: async () => {
        const report = await release();
        staged = report?.staged;
        return report;
      },
    },
    layout.workspace,
    60_000,
  );
  return { code: run.code, stderr: run.stderr, staged };
}

const layouts: ReadonlyArray<readonly [string, (home: string) => string, (workspace: string) => string]> = [
  ['a folder of projects as the workspace (src/projA/.git)', (home) => path.join(home, 'src'), (ws) => path.join(ws, 'projA')],
  ['an independent repository inside the root repository (tools/vendored/.git)', (home) => path.join(home, 'app'), (ws) => path.join(ws, 'tools', 'vendored')],
  ['a folder of projects, the repository four levels down', (home) => path.join(home, 'src'), (ws) => path.join(ws, 'a', 'b', 'c', 'projD')],
  ['HOME as the workspace (code/app/.git)', (home) => home, (ws) => path.join(ws, 'code', 'app')],
  ['a repository six levels down', (home) => path.join(home, 'w'), (ws) => path.join(ws, '1', '2', '3', '4', '5', 'six')],
];

describe('staged writes: planted git below a writable root (real bubblewrap)', () => {
  for (const [name, workspaceOf, repositoryOf] of layouts) {
    it(`${name}: unprotected the plant runs; sandboxed it does not, and git commit works there`, async () => {
      const control = makeLayout(workspaceOf, repositoryOf);
      if (workspaceOf === layouts[1]?.[1]) git(control.workspace, control.home, 'init', '-q');
      execFileSync('/bin/bash', ['-c', plantScript(control)], { cwd: control.workspace, env: gitEnvironment(control.home) });
      expect(usersGitRuns(control)).toBeGreaterThanOrEqual(3); // the control: hook, fsmonitor and pager ran

      const layout = makeLayout(workspaceOf, repositoryOf);
      if (workspaceOf === layouts[1]?.[1]) git(layout.workspace, layout.home, 'init', '-q');
      const configBefore = fs.readFileSync(path.join(layout.repository, '.git', 'config'), 'utf8');
      const planted = await sandboxed(layout, plantScript(layout));
      expect(planted.code).toBe(0); // inside, the command saw its writes
      const refusedPaths = planted.staged?.refused.map((refusal) => path.relative(layout.repository, refusal.path)) ?? [];
      expect(refusedPaths).toEqual(expect.arrayContaining([path.join('.git', 'config'), path.join('.git', 'hooks', 'pre-commit')]));
      expect(fs.readFileSync(path.join(layout.repository, '.git', 'config'), 'utf8')).toBe(configBefore);
      expect(fs.existsSync(path.join(layout.repository, '.git', 'hooks', 'pre-commit'))).toBe(false);
      expect(usersGitRuns(layout)).toBe(0);

      // git commit inside the sandbox, in that repository: the commit reaches the host.
      const relative = path.relative(layout.workspace, layout.repository) || '.';
      const committed = await sandboxed(
        layout,
        `cd ${JSON.stringify(relative)} && echo sandboxed >> README && git -c user.name=agent -c user.email=agent@example.invalid commit -qam 'from the sandbox'`,
      );
      expect(committed.code).toBe(0);
      expect(committed.staged?.refused).toEqual([]);
      expect(git(layout.repository, layout.home, 'log', '-1', '--format=%s').trim()).toBe('from the sandbox');
      expect(fs.statSync(path.join(layout.repository, '.git')).isDirectory()).toBe(true);
    }, 120_000);
  }

  it('.envrc and .vscode/tasks.json one level down, and a new nested repository, stay out of the host', async () => {
    const layout = makeLayout((home) => path.join(home, 'src'), (ws) => path.join(ws, 'projA'));
    const result = await sandboxed(
      layout,
      [
        'echo "touch pwned" > projA/.envrc',
        'mkdir -p projA/.vscode && echo "{}" > projA/.vscode/tasks.json',
        'mkdir -p fresh/deep && cd fresh/deep && git init -q && git config core.fsmonitor /bin/true && echo x > .git/hooks/post-checkout && echo ok > file',
      ].join(' && '),
    );
    expect(result.code).toBe(0);
    expect(fs.existsSync(path.join(layout.repository, '.envrc'))).toBe(false);
    expect(fs.existsSync(path.join(layout.repository, '.vscode'))).toBe(false);
    expect(fs.readFileSync(path.join(layout.workspace, 'fresh', 'deep', 'file'), 'utf8')).toBe('ok\n');
    // The new repository arrives (its objects, refs and HEAD), without what would run a program.
    expect(fs.existsSync(path.join(layout.workspace, 'fresh', 'deep', '.git', 'HEAD'))).toBe(true);
    expect(fs.existsSync(path.join(layout.workspace, 'fresh', 'deep', '.git', 'hooks', 'post-checkout'))).toBe(false);
    const freshConfig = path.join(layout.workspace, 'fresh', 'deep', '.git', 'config');
    expect(fs.existsSync(freshConfig) ? fs.readFileSync(freshConfig, 'utf8') : '').not.toContain('fsmonitor');
  }, 120_000);

  it('a bare repository planted at the workspace root or below it (HEAD, objects, refs, config with core.pager, a hook) runs nothing for the user', async () => {
    for (const where of ['.', 'deep/er']) {
      const control = makeLayout((home) => path.join(home, 'plain'), (ws) => path.join(ws, 'existing'));
      const plant = (layout: Layout): string => [
        `mkdir -p ${where}/objects ${where}/refs/heads ${where}/hooks && cd ${where}`,
        "echo 'ref: refs/heads/main' > HEAD",
        `printf '#!/bin/sh\\necho ran >> %s\\ncat >/dev/null\\n' ${JSON.stringify(layout.marker)} > hooks/pager && chmod +x hooks/pager`,
        `printf '[core]\\n\\tpager = %s\\n' "$PWD/hooks/pager" > config`,
      ].join(' && ');
      execFileSync('/bin/bash', ['-c', plant(control)], { cwd: control.workspace, env: gitEnvironment(control.home) });
      // The user's git in that folder takes it for a bare repository; on a terminal it starts the pager.
      const bareRuns = (layout: Layout): number => {
        fs.rmSync(layout.marker, { force: true });
        const { GIT_PAGER: _gitPager, PAGER: _pager, ...env } = gitEnvironment(layout.home);
        spawnSync('script', ['-qec', 'git -p config --list', '/dev/null'], { cwd: path.join(layout.workspace, where), env, stdio: 'ignore' });
        return fs.existsSync(layout.marker) ? fs.readFileSync(layout.marker, 'utf8').split('\n').filter(Boolean).length : 0;
      };
      expect(bareRuns(control)).toBeGreaterThanOrEqual(1); // the control: git takes the folder for a bare repository and runs the pager

      const layout = makeLayout((home) => path.join(home, 'plain'), (ws) => path.join(ws, 'existing'));
      const planted = await sandboxed(layout, plant(layout));
      expect(planted.code).toBe(0);
      expect(fs.existsSync(path.join(layout.workspace, where, 'hooks', 'pager'))).toBe(false);
      const config = path.join(layout.workspace, where, 'config');
      expect(fs.existsSync(config) ? fs.readFileSync(config, 'utf8') : '').not.toContain('pager');
      expect(bareRuns(layout)).toBe(0);
    }
  }, 120_000);

  it('`ln .git/config cfg` leaves no hard link between a name the command may write and the host config', async () => {
    const layout = makeLayout((home) => path.join(home, 'src'), (ws) => path.join(ws, 'proj'));
    const run = await sandboxed(layout, 'cd proj && ln .git/config cfg && ln -s x notes-link');
    expect(run.code).toBe(0);
    const config = fs.statSync(path.join(layout.repository, '.git', 'config'));
    const copy = fs.statSync(path.join(layout.repository, 'cfg'));
    expect(copy.ino).not.toBe(config.ino);
    expect(config.nlink).toBe(1);
    // A later in-place write to cfg (an editor, a file tool) leaves the repository's config as it was.
    fs.appendFileSync(path.join(layout.repository, 'cfg'), '[core]\n\tpager = planted\n');
    expect(fs.readFileSync(path.join(layout.repository, '.git', 'config'), 'utf8')).not.toContain('planted');
  }, 60_000);

  it('two calls cannot build a repository around a planted pager (a commondir first, then a HEAD that is a link)', async () => {
    const layout = makeLayout((home) => path.join(home, 'src'), (ws) => path.join(ws, 'proj'));
    const pager = `printf '#!/bin/sh\\necho ran >> %s\\ncat >/dev/null\\n' ${JSON.stringify(layout.marker)} > plain/pager && chmod +x plain/pager`;
    const first = await sandboxed(layout, `mkdir -p plain/wt plain/objects plain/refs/heads && ${pager} && printf '[core]\\n\\tpager = %s\\n' "$PWD/plain/pager" > plain/config && echo ../ > plain/wt/commondir`);
    expect(first.code).toBe(0);
    expect(fs.existsSync(path.join(layout.workspace, 'plain', 'wt', 'commondir'))).toBe(false);
    const second = await sandboxed(layout, "echo 'ref: refs/heads/main' > plain/TARGET && ln -s TARGET plain/HEAD");
    expect(second.code).toBe(0);
    expect(fs.existsSync(path.join(layout.workspace, 'plain', 'HEAD'))).toBe(false);
  }, 60_000);
});
