import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BubblewrapBackend, createSandboxPolicy } from '../index.js';
import { compileSourcesForChild } from '../bubblewrap/test-support/compile-sources-for-child.js';
import { makeTempDirectory } from '../bubblewrap/test-support/run-wrapped.js';
import { installStageMountHelper } from './install-stage-mount-helper.js';
import { createStagingArea, stagingBases } from './staging-area.js';

let base: string;
let build: string;

beforeAll(async () => {
  build = await compileSourcesForChild();
}, 120_000);

afterAll(() => {
  fs.rmSync(build, { recursive: true, force: true });
});

beforeEach(async () => {
  base = await makeTempDirectory('ow-staging-area-');
});

afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

/** The ID of a process that has ended (a `kill -9`ed OpenWork process of an older version). */
function endedProcessId(): number {
  const child = spawnSync('/bin/sh', ['-c', 'echo $$'], { encoding: 'utf8' });
  return Number(child.stdout.trim());
}

function stagingOf(openworkHome: string): string[] {
  return fs.readdirSync(path.join(openworkHome, 'staging')).sort();
}

describe('the staging area of a call (architecture §3.7: crashes)', () => {
  it('is made private in the OpenWork home, named after this process, and removed with everything in it', () => {
    const openworkHome = path.join(base, 'openwork-home');
    const workspace = path.join(base, 'workspace');
    fs.mkdirSync(workspace);
    const area = createStagingArea(openworkHome, [workspace], installStageMountHelper(openworkHome));
    expect(path.dirname(area.folder)).toBe(path.join(openworkHome, 'staging'));
    expect(path.basename(area.folder)).toMatch(new RegExp(`^${process.pid}\\.[0-9a-f]{8}-[A-Za-z0-9]{6}$`));
    for (const folder of [area.folder, path.dirname(area.folder)]) expect(fs.lstatSync(folder).mode & 0o777).toBe(0o700);
    expect(area.roots.map((root) => root.target)).toEqual([workspace]);
    // overlayfs leaves work/work with mode 0: removal must still take it.
    fs.mkdirSync(path.join(area.roots[0]!.work, 'work'), { mode: 0 });
    area.remove();
    expect(fs.existsSync(area.folder)).toBe(false);
    // The shared folder stays, with this living process's lock file only.
    expect(stagingOf(openworkHome)).toEqual([`${path.basename(area.folder).slice(0, -7)}.lock`]);
  });

  it('never opens up a folder through a link: a `work/work` link to a folder elsewhere leaves that folder as it was', () => {
    const openworkHome = path.join(base, 'openwork-home');
    const area = createStagingArea(openworkHome, [base], installStageMountHelper(openworkHome));
    const elsewhere = path.join(base, 'elsewhere');
    fs.mkdirSync(elsewhere, { mode: 0o500 });
    fs.chmodSync(elsewhere, 0o500);
    fs.symlinkSync(elsewhere, path.join(area.roots[0]!.work, 'work'));
    area.remove();
    expect(fs.statSync(elsewhere).mode & 0o777).toBe(0o500);
    expect(fs.existsSync(area.folder)).toBe(false);
  });

  it('refuses a staging folder others may enter, and stages elsewhere', () => {
    const openworkHome = path.join(base, 'openwork-home');
    fs.mkdirSync(path.join(openworkHome, 'staging'), { recursive: true });
    fs.chmodSync(path.join(openworkHome, 'staging'), 0o755);
    const area = createStagingArea(openworkHome, [path.join(base, 'workspace')], installStageMountHelper(openworkHome));
    try {
      expect(area.folder.startsWith(`${openworkHome}/`)).toBe(false);
      expect(fs.lstatSync(path.dirname(area.folder)).mode & 0o777).toBe(0o700);
    } finally {
      area.remove();
    }
  });

  it('the next call of any process removes the folder a killed process of an older version left, and leaves a living one alone', () => {
    const openworkHome = path.join(base, 'openwork-home');
    const staging = path.join(openworkHome, 'staging');
    const dead = path.join(staging, `${endedProcessId()}-AbC123`);
    const living = path.join(staging, `${process.ppid}-XyZ789`);
    for (const folder of [dead, living]) {
      fs.mkdirSync(path.join(folder, 'r0', 'work', 'work'), { recursive: true });
      fs.chmodSync(path.join(folder, 'r0', 'work', 'work'), 0);
    }
    fs.chmodSync(staging, 0o700);
    fs.chmodSync(openworkHome, 0o700);
    const area = createStagingArea(openworkHome, [base], installStageMountHelper(openworkHome));
    expect(fs.existsSync(dead)).toBe(false);
    expect(fs.existsSync(living)).toBe(true);
    area.remove();
    fs.chmodSync(path.join(living, 'r0', 'work', 'work'), 0o700);
  });

  it('never inside an overlaid folder: an OpenWork home in the workspace stages on a disk outside it, or in shared memory', () => {
    const workspace = path.join(base, 'home');
    const bases = stagingBases(path.join(workspace, '.openwork'), [workspace]);
    expect(bases.every((candidate) => !candidate.startsWith(`${workspace}/`))).toBe(true);
    expect(bases).toEqual(expect.arrayContaining([expect.stringMatching(/^\/var\/tmp\/openwork-\d+\/staging$/), expect.stringMatching(/^\/dev\/shm\/openwork-\d+\/staging$/)]));
  });
});

describe('crash recovery across PID namespaces (one OpenWork home, processes that cannot see each other)', () => {
  it('a call of a process in another PID namespace never removes the staging folder of a living call', async () => {
    const home = path.join(base, 'home');
    const openworkHome = path.join(base, 'openwork-home');
    const workspace = path.join(base, 'workspace');
    const temp = path.join(base, 'tmp');
    for (const folder of [home, workspace, temp]) fs.mkdirSync(folder, { recursive: true });
    const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, openworkHome, tempRoots: [temp] });
    const backend = new BubblewrapBackend();
    // A living call of this process: its staging folder is made, the command not yet run.
    const wrapped = backend.wrap({ argv: ['/bin/sh', '-c', 'echo mine > mine.txt'], cwd: workspace }, policy);
    const before = stagingOf(openworkHome);
    expect(before.filter((name) => !name.endsWith('.lock'))).toHaveLength(1);
    // Another OpenWork process in a PID namespace of its own (this process's pid means nothing there).
    const configuration = { workspace, home, openworkHome, temp, mode: 'workspace-write', calls: ['echo theirs > theirs.txt'], rounds: 1 };
    const other = spawn('unshare', ['--pid', '--fork', '--kill-child', '/bin/sh', '-c', '"$@"; :', 'sh', process.execPath, path.join(build, 'bubblewrap/test-support/sandbox-host-child.js'), JSON.stringify(configuration)], {
      cwd: build,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, OPENWORK_HOME: openworkHome },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    other.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => other.once('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(fs.readFileSync(path.join(workspace, 'theirs.txt'), 'utf8')).toBe('theirs\n');
    // Our call's folder is still there: the command runs and its write arrives.
    expect(stagingOf(openworkHome).filter((name) => before.includes(name))).toEqual(before);
    const [file, ...args] = wrapped.argv as [string, ...string[]];
    expect(spawnSync(file, args, { cwd: workspace }).status).toBe(0);
    const report = await wrapped.release();
    expect(report?.notices ?? []).toEqual([]);
    expect(fs.readFileSync(path.join(workspace, 'mine.txt'), 'utf8')).toBe('mine\n');
  }, 60_000);
});
