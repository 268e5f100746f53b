import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapBackend, createSandboxPolicy } from '../index.js';
import { makeTempDirectory, requireBubblewrap, runWrapped } from './test-support/run-wrapped.js';

let root: string;
let workspace: string;
let home: string;

beforeAll(async () => {
  await requireBubblewrap();
  root = await makeTempDirectory('ow-bwrap-registry-');
  workspace = path.join(root, 'ws');
  home = path.join(root, 'home');
  await fs.mkdir(path.join(workspace, '.git'), { recursive: true });
  await fs.writeFile(path.join(workspace, '.git/HEAD'), 'ref: refs/heads/main\n');
  await fs.mkdir(home);
});

afterAll(async () => {
  if (root !== undefined) await fs.rm(root, { recursive: true, force: true });
});

/** A forged record: a released claim that lists a file of the user as "planted", so that a sweep would remove it. */
const forgery = (victim: string) => `echo '{"created":[{"path":"${victim}","content":""}],"stands":[]}'`;

describe('no sandboxed command can reach the mount-point registry (architecture §3.7)', () => {
  it('the default registry in /dev/shm is not visible inside, even while the call holds a claim in it', async () => {
    const backend = new BubblewrapBackend();
    const policy = createSandboxPolicy({ mode: 'full-access', workspaceRoots: [workspace], homeDirectory: home, tempRoots: [] });
    const uid = process.getuid?.() ?? 0;
    const wrapped = backend.wrap({ argv: ['/bin/bash', '-c', `ls -a /dev/shm; ${forgery(`${home}/.hushlogin`)} > /dev/shm/openwork-${uid}/mount-points/left.x.1.json`], cwd: workspace }, policy);
    // The host has the registry with this call's claim in it right now.
    const hostNames = await fs.readdir(`/dev/shm/openwork-${uid}/mount-points`);
    expect(hostNames.some((name) => name.startsWith('active.'))).toBe(true);
    const run = await runWrapped(wrapped, workspace);
    expect(run.stdout.split('\n').filter((name) => name.startsWith('openwork-'))).toEqual([]);
    expect(run.stderr).toMatch(/No such file or directory/);
  });

  it('a registry folder chosen inside the workspace is read-only inside: a forged record cannot be written', async () => {
    const registryDirectory = path.join(workspace, 'registry');
    // The registry belongs to the mount-per-name renderer: this covers the full-access renderer (staged writes keep no registry).
    const backend = new BubblewrapBackend({ registryDirectory, stagedWrites: false });
    const victim = path.join(workspace, 'empty-but-mine');
    await fs.writeFile(victim, '');
    const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, tempRoots: [] });
    const script = `mkdir -p ${registryDirectory}; ${forgery(victim)} > ${registryDirectory}/left.00-1-1.1.json; rm -rf ${registryDirectory}/*`;
    const run = await runWrapped(backend.wrap({ argv: ['/bin/bash', '-c', script], cwd: workspace }, policy), workspace);
    expect(run.stderr).toMatch(/Read-only file system/);
    // The next call's sweep finds no forged record, and the user's empty file is still there.
    await runWrapped(backend.wrap({ argv: ['true'], cwd: workspace }, policy), workspace);
    expect(await fs.readFile(victim, 'utf8')).toBe('');
    expect((await fs.readdir(registryDirectory)).filter((name) => name.endsWith('.json'))).toEqual([]);
  });
});
