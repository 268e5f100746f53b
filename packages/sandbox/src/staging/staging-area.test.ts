import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirectory } from '../bubblewrap/test-support/run-wrapped.js';
import { createStagingArea, stagingBases } from './staging-area.js';

let base: string;

beforeEach(async () => {
  base = await makeTempDirectory('ow-staging-area-');
});

afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

/** The ID of a process that has ended (a `kill -9`ed OpenWork process, as far as the folder can tell). */
function endedProcessId(): number {
  const child = spawnSync('/bin/sh', ['-c', 'echo $$'], { encoding: 'utf8' });
  return Number(child.stdout.trim());
}

describe('the staging area of a call (architecture §3.7: crashes)', () => {
  it('is made in the OpenWork home, owned by this process, and removed with everything in it', () => {
    const openworkHome = path.join(base, 'openwork-home');
    const workspace = path.join(base, 'workspace');
    fs.mkdirSync(workspace);
    const area = createStagingArea(openworkHome, [workspace]);
    expect(path.dirname(area.folder)).toBe(path.join(openworkHome, 'staging'));
    expect(path.basename(area.folder)).toMatch(new RegExp(`^${process.pid}-[A-Za-z0-9]{6}$`));
    expect(fs.statSync(area.folder).mode & 0o777).toBe(0o700);
    expect(area.roots.map((root) => root.target)).toEqual([workspace]);
    // overlayfs leaves work/work with mode 0: removal must still take it.
    fs.mkdirSync(path.join(area.roots[0]!.work, 'work'), { mode: 0 });
    area.remove();
    expect(fs.existsSync(area.folder)).toBe(false);
    expect(fs.readdirSync(path.join(openworkHome, 'staging'))).toEqual([]); // the shared folder stays, empty
  });

  it('the next call of any process removes the folder a killed process left, and leaves a living one alone', () => {
    const openworkHome = path.join(base, 'openwork-home');
    const staging = path.join(openworkHome, 'staging');
    const dead = path.join(staging, `${endedProcessId()}-AbC123`);
    const living = path.join(staging, `${process.ppid}-XyZ789`);
    for (const folder of [dead, living]) {
      fs.mkdirSync(path.join(folder, 'r0', 'work', 'work'), { recursive: true });
      fs.chmodSync(path.join(folder, 'r0', 'work', 'work'), 0);
    }
    const area = createStagingArea(openworkHome, [base]);
    expect(fs.existsSync(dead)).toBe(false);
    expect(fs.existsSync(living)).toBe(true);
    area.remove();
    fs.chmodSync(path.join(living, 'r0', 'work', 'work'), 0o700);
  });

  it('never inside an overlaid folder: an OpenWork home in the workspace stages in shared memory', () => {
    const workspace = path.join(base, 'home');
    const bases = stagingBases(path.join(workspace, '.openwork'), [workspace]);
    expect(bases.every((candidate) => !candidate.startsWith(`${workspace}/`))).toBe(true);
    expect(bases[0]).toMatch(/^\/dev\/shm\/openwork-\d+\/staging$/);
  });
});
