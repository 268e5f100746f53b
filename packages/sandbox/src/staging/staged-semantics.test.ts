import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapBackend } from '../bubblewrap/bubblewrap-backend.js';
import { makeTempDirectory, requireBubblewrap, runWrapped } from '../bubblewrap/test-support/run-wrapped.js';
import { createSandboxPolicy } from '../policy/create-sandbox-policy.js';
import type { StagedApplyReport } from './staged-writes.js';

/**
 * What staged writes keep of the semantics a user's tools rely on (docs/decisions: staged writes),
 * each on the real kernel: the host after the call, compared with what the command did inside.
 */

let base: string;
let backend: BubblewrapBackend;
let counter = 0;

beforeAll(async () => {
  await requireBubblewrap();
  base = await makeTempDirectory('ow-staged-semantics-');
  backend = new BubblewrapBackend();
  expect(await backend.selfCheck()).toEqual({ available: true });
});

afterAll(() => {
  if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
});

function layout(): { workspace: string; home: string; openworkHome: string } {
  counter += 1;
  const root = path.join(base, `case-${counter}`);
  const workspace = path.join(root, 'home', 'ws');
  fs.mkdirSync(workspace, { recursive: true });
  fs.mkdirSync(path.join(root, 'openwork-home'));
  return { workspace, home: path.join(root, 'home'), openworkHome: path.join(root, 'openwork-home') };
}

async function run(place: ReturnType<typeof layout>, command: string, timeoutMs = 30_000): Promise<{ code: number | null; stdout: string; stderr: string; staged: StagedApplyReport }> {
  const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [place.workspace], homeDirectory: place.home, openworkHome: place.openworkHome });
  const wrapped = backend.wrap({ argv: ['/bin/bash', '-c', command], cwd: place.workspace }, policy);
  let staged: StagedApplyReport | undefined;
  const result = await runWrapped(
    {
      argv: wrapped.argv,
      release: async () => {
        const report = await wrapped.release();
        staged = report?.staged;
        return report;
      },
    },
    place.workspace,
    timeoutMs,
  );
  if (staged === undefined) throw new Error('the staged backend reported nothing');
  return { code: result.code, stdout: result.stdout, stderr: result.stderr, staged };
}

const read = (file: string): string => fs.readFileSync(file, 'utf8');

describe('staged writes keep what tools rely on (real bubblewrap)', () => {
  it('a host socket that goes away between the wrap and the start (a daemon that ended) does not stop the command before it runs', async () => {
    const place = layout();
    const socket = path.join(place.workspace, 'daemon.sock');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [place.workspace], homeDirectory: place.home, openworkHome: place.openworkHome });
    const wrapped = backend.wrap({ argv: ['/bin/sh', '-c', 'echo ran'], cwd: place.workspace }, policy);
    expect(wrapped.argv).toContain(socket); // listed and masked inside the workspace's overlay
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(fs.existsSync(socket)).toBe(false);
    const result = await runWrapped(wrapped, place.workspace, 30_000);
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({ code: 0, stdout: 'ran\n', stderr: '' });
  });

  it('bwrap gives the stage helper only CAP_SYS_ADMIN, CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH and CAP_SETPCAP, and overlays made with those still delete, replace and empty folders', async () => {
    const place = layout();
    const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [place.workspace], homeDirectory: place.home, openworkHome: place.openworkHome });
    const wrapped = backend.wrap({ argv: ['/bin/true'], cwd: place.workspace }, policy);
    const added = wrapped.argv.flatMap((argument, index) => (argument === '--cap-add' ? [wrapped.argv[index + 1]] : []));
    await wrapped.release();
    expect(added).toEqual(['CAP_SYS_ADMIN', 'CAP_DAC_OVERRIDE', 'CAP_DAC_READ_SEARCH', 'CAP_SETPCAP']);
    fs.mkdirSync(path.join(place.workspace, 'tree', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(place.workspace, 'tree', 'deep', 'f'), 'old\n');
    fs.writeFileSync(path.join(place.workspace, 'gone'), 'x\n');
    const result = await run(place, 'rm gone && rm -r tree && mkdir -p tree && echo new > tree/g');
    expect(result.code).toBe(0);
    expect(fs.existsSync(path.join(place.workspace, 'gone'))).toBe(false);
    expect(fs.readdirSync(path.join(place.workspace, 'tree'))).toEqual(['g']);
  });

  it('a directory rename arrives as the new tree, the old one removed', async () => {
    const place = layout();
    fs.mkdirSync(path.join(place.workspace, 'old', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(place.workspace, 'old', 'deep', 'f'), 'content\n');
    const result = await run(place, 'mv old new && cat new/deep/f');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('content\n');
    expect(fs.existsSync(path.join(place.workspace, 'old'))).toBe(false);
    expect(read(path.join(place.workspace, 'new', 'deep', 'f'))).toBe('content\n');
  });

  it('hard links made inside are links on the host; executable bits stay, set-user-ID does not', async () => {
    const place = layout();
    const result = await run(place, 'echo one > a && ln a b && printf "#!/bin/sh\\necho run\\n" > tool && chmod 4755 tool');
    expect(result.code).toBe(0);
    const a = fs.statSync(path.join(place.workspace, 'a'));
    const b = fs.statSync(path.join(place.workspace, 'b'));
    expect(a.ino).toBe(b.ino);
    expect(a.nlink).toBe(2);
    expect(fs.statSync(path.join(place.workspace, 'tool')).mode & 0o7777).toBe(0o755);
    expect(execFileSync(path.join(place.workspace, 'tool'), { encoding: 'utf8' })).toBe('run\n');
  });

  it('a symbolic link is applied as a link; a write through a link is judged where it lands', async () => {
    const place = layout();
    fs.mkdirSync(path.join(place.workspace, 'repo', '.git'), { recursive: true });
    fs.writeFileSync(path.join(place.workspace, 'repo', '.git', 'config'), '[core]\n\tbare = false\n');
    const result = await run(place, 'ln -s target.txt link && echo through > link && ln -s repo/.git/config cfg && echo "[core] fsmonitor = /bin/evil" >> cfg');
    expect(result.code).toBe(0);
    expect(fs.readlinkSync(path.join(place.workspace, 'link'))).toBe('target.txt');
    expect(read(path.join(place.workspace, 'target.txt'))).toBe('through\n');
    expect(read(path.join(place.workspace, 'repo', '.git', 'config'))).toBe('[core]\n\tbare = false\n');
    expect(result.staged.refused.map((refusal) => refusal.path)).toContain(path.join(place.workspace, 'repo', '.git', 'config'));
  });

  it('deletes of files and whole trees, and a folder removed and made anew (opaque)', async () => {
    const place = layout();
    fs.mkdirSync(path.join(place.workspace, 'tree', 'a', 'b'), { recursive: true });
    fs.writeFileSync(path.join(place.workspace, 'tree', 'a', 'b', 'f'), 'x');
    fs.mkdirSync(path.join(place.workspace, 'dist'));
    fs.writeFileSync(path.join(place.workspace, 'dist', 'stale.js'), 'old');
    fs.writeFileSync(path.join(place.workspace, 'single'), 'y');
    const result = await run(place, 'rm -rf tree single dist && mkdir dist && echo new > dist/fresh.js');
    expect(result.code).toBe(0);
    expect(fs.existsSync(path.join(place.workspace, 'tree'))).toBe(false);
    expect(fs.existsSync(path.join(place.workspace, 'single'))).toBe(false);
    expect(fs.readdirSync(path.join(place.workspace, 'dist'))).toEqual(['fresh.js']);
    expect(result.staged.counts.deleted).toBeGreaterThanOrEqual(5);
  });

  it('a SQLite database written in the workspace is whole on the host', async () => {
    const place = layout();
    const script = 'import sqlite3; c = sqlite3.connect("db.sqlite"); c.execute("create table t (v)"); c.executemany("insert into t values (?)", [(i,) for i in range(1000)]); c.commit()';
    const result = await run(place, `python3 -c '${script}'`);
    expect(result.code).toBe(0);
    const count = execFileSync('python3', ['-c', 'import sqlite3; print(sqlite3.connect("db.sqlite").execute("select count(*) from t").fetchone()[0])'], { cwd: place.workspace, encoding: 'utf8' });
    expect(count.trim()).toBe('1000');
  });

  it('appending to a large file keeps every byte', async () => {
    const place = layout();
    const large = path.join(place.workspace, 'large.log');
    fs.writeFileSync(large, Buffer.alloc(8 * 1024 * 1024, 'a'));
    const result = await run(place, 'echo tail >> large.log');
    expect(result.code).toBe(0);
    const stats = fs.statSync(large);
    expect(stats.size).toBe(8 * 1024 * 1024 + 5);
    const fd = fs.openSync(large, 'r');
    const end = Buffer.alloc(6);
    fs.readSync(fd, end, 0, 6, stats.size - 6);
    fs.closeSync(fd);
    expect(end.toString()).toBe('atail\n');
  });

  it('what a command wrote before its timeout killed it is applied', async () => {
    const place = layout();
    const result = await run(place, 'echo before > partial.txt; exec sleep 30', 1500);
    expect(result.code).not.toBe(0);
    expect(read(path.join(place.workspace, 'partial.txt'))).toBe('before\n');
  });

  it('a FIFO the command makes is not applied, and says so', async () => {
    const place = layout();
    const result = await run(place, 'mkfifo pipe && echo ok > file');
    expect(result.code).toBe(0);
    expect(fs.existsSync(path.join(place.workspace, 'pipe'))).toBe(false);
    expect(result.staged.skipped.map((skip) => skip.path)).toEqual([path.join(place.workspace, 'pipe')]);
    expect(read(path.join(place.workspace, 'file'))).toBe('ok\n');
  });

  it('a core.hooksPath folder and a .git file at depth are refused; the repository keeps working', async () => {
    const place = layout();
    const repository = path.join(place.workspace, 'a', 'b', 'app');
    fs.mkdirSync(path.join(repository, '.husky'), { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: repository, env: { ...process.env, HOME: place.home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
    execFileSync('git', ['config', 'core.hooksPath', '.husky'], { cwd: repository, env: { ...process.env, HOME: place.home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
    fs.mkdirSync(path.join(place.workspace, 'wt'));
    fs.writeFileSync(path.join(place.workspace, 'wt', '.git'), 'gitdir: ../a/b/app/.git\n');
    const result = await run(place, 'echo "touch /tmp/pwned" > a/b/app/.husky/pre-commit && echo "gitdir: /elsewhere" > wt/.git && echo fine > a/b/app/code.txt');
    expect(result.code).toBe(0);
    expect(fs.existsSync(path.join(repository, '.husky', 'pre-commit'))).toBe(false);
    expect(read(path.join(place.workspace, 'wt', '.git'))).toBe('gitdir: ../a/b/app/.git\n');
    expect(read(path.join(repository, 'code.txt'))).toBe('fine\n');
    expect(result.staged.refused.map((refusal) => path.relative(place.workspace, refusal.path)).sort()).toEqual([path.join('a', 'b', 'app', '.husky', 'pre-commit'), path.join('wt', '.git')]);
  });

  it("a hook manager's configuration (pre-commit, lefthook) in a repository at depth is refused; the same names outside a work tree arrive", async () => {
    const place = layout();
    const repository = path.join(place.workspace, 'projects', 'app');
    const marker = path.join(place.home, '..', 'hook-manager-ran');
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: place.home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'u', GIT_AUTHOR_EMAIL: 'u@example.invalid', GIT_COMMITTER_NAME: 'u', GIT_COMMITTER_EMAIL: 'u@example.invalid' };
    fs.mkdirSync(repository, { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: repository, env });
    // What `pre-commit install` leaves, reduced to its effect: the hook runs every `entry:` of the
    // work tree's configuration (a `repo: local` hook with `language: system`).
    fs.writeFileSync(path.join(repository, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nsed -n "s/^ *entry: //p" .pre-commit-config.yaml 2>/dev/null | sh\n', { mode: 0o755 });
    const plant = `repos:\n- repo: local\n  hooks:\n  - id: lint\n    name: lint\n    language: system\n    entry: touch ${marker}\n`;
    const commit = (): void => {
      fs.appendFileSync(path.join(repository, 'code.txt'), 'line\n');
      execFileSync('git', ['add', 'code.txt'], { cwd: repository, env });
      execFileSync('git', ['commit', '-qm', 'change'], { cwd: repository, env });
    };

    // The control: written on the host, the user's next commit runs the planted entry.
    fs.writeFileSync(path.join(repository, '.pre-commit-config.yaml'), plant);
    commit();
    expect(fs.existsSync(marker)).toBe(true);
    fs.rmSync(marker);
    fs.rmSync(path.join(repository, '.pre-commit-config.yaml'));

    const result = await run(
      place,
      [
        `printf '${plant.replaceAll('\n', '\\n')}' > projects/app/.pre-commit-config.yaml`,
        'mkdir -p projects/app/.lefthook/pre-commit projects/app/.config node_modules/pkg',
        `echo 'pre-commit: {commands: {x: {run: touch ${marker}}}}' > projects/app/lefthook.yml`,
        'echo "touch x" > projects/app/.lefthook/pre-commit/plant.sh',
        'echo "pre-commit: {}" > projects/app/.config/lefthook.yml',
        'echo "repos: []" > node_modules/pkg/.pre-commit-config.yaml',
        'echo "pre-commit: {}" > node_modules/pkg/lefthook.yml',
        'echo fine > projects/app/notes.txt',
      ].join(' && '),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.staged.refused.map((refusal) => path.relative(place.workspace, refusal.path)).sort()).toEqual(
      ['.config/lefthook.yml', '.lefthook', '.pre-commit-config.yaml', 'lefthook.yml'].map((name) => path.join('projects', 'app', name)).sort(),
    );
    for (const name of ['.pre-commit-config.yaml', 'lefthook.yml', '.lefthook', '.config/lefthook.yml']) expect(fs.existsSync(path.join(repository, name)), name).toBe(false);
    // Outside any work tree the names are ordinary files (a package's own, in node_modules).
    expect(read(path.join(place.workspace, 'node_modules', 'pkg', '.pre-commit-config.yaml'))).toBe('repos: []\n');
    expect(read(path.join(place.workspace, 'node_modules', 'pkg', 'lefthook.yml'))).toBe('pre-commit: {}\n');
    expect(read(path.join(repository, 'notes.txt'))).toBe('fine\n');
    commit();
    expect(fs.existsSync(marker)).toBe(false);
  });
});

describe('host sockets bound through a link', () => {
  it('a daemon listening at a path through a linked folder (like /var/run → /run) is masked where the socket is, and the call runs', async () => {
    const { createServer } = await import('node:net');
    const place = layout();
    const real = path.join(base, `sockets-${counter}`);
    fs.mkdirSync(real);
    fs.symlinkSync(real, path.join(base, `linked-${counter}`));
    const socket = path.join(base, `linked-${counter}`, 'daemon.sock');
    const server = createServer((connection) => connection.end('answer\n'));
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socket, resolve));
    try {
      const result = await run(place, `python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.connect("${socket}"); print(s.recv(10))' 2>&1 | tail -1; echo ran`);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/ConnectionRefusedError|Connection refused/);
      expect(result.stdout).toContain('ran');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
