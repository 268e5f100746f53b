import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapBackend, createSandboxPolicy, landlockScope } from '../index.js';
import { installStageMountHelper } from '../staging/install-stage-mount-helper.js';
import { listTree, makeTempDirectory, requireBubblewrap, runWrapped } from './test-support/run-wrapped.js';

/**
 * Architecture §3.7 "planted code", on the real kernel: with the workspace = HOME
 * (an MCP root of `~`) or in full-access, bash must not plant any start-up file a stock system
 * later runs outside the sandbox — and leaves no mount point behind.
 */
const backend = new BubblewrapBackend();
let root: string;
let home: string;
let toolsBin: string;

const plants = [
  '.bash_aliases',
  '.bash_login',
  '.bash_logout',
  '.inputrc',
  '.local/bin/git',
  '.local/lib/python3.11/site-packages/usercustomize.py',
  '.local/lib/python3.11/site-packages/evil.pth',
  '.config/autostart/evil.desktop',
  '.config/systemd/user/evil.service',
  '.config/git/config',
  '.config/git/attributes',
  '.vimrc',
  '.config/nvim/init.lua',
  '.tmux.conf',
  '.ssh/rc',
];

beforeAll(async () => {
  await requireBubblewrap();
  root = await makeTempDirectory('ow-bwrap-start-up-');
  home = path.join(root, 'home');
  toolsBin = path.join(home, 'tools/bin');
  await fs.mkdir(toolsBin, { recursive: true });
  await fs.mkdir(path.join(home, '.local/bin'), { recursive: true });
  // The Landlock and stage-mount helpers are installed once per OpenWork home (§3.7, §3.10), not left by a call: in place before the snapshot.
  landlockScope(path.join(home, '.openwork'));
  installStageMountHelper(path.join(home, '.openwork'));
});

afterAll(async () => {
  if (root !== undefined) await fs.rm(root, { recursive: true, force: true });
});

describe('start-up files (architecture §3.7)', () => {
  for (const mode of ['workspace-write', 'full-access'] as const) {
    it(`${mode} with the workspace = HOME: none of the start-up files can be planted, PATH folders in HOME included`, async () => {
      const policy = createSandboxPolicy({ mode, workspaceRoots: [home], homeDirectory: home, tempRoots: [], executableSearchPath: `${toolsBin}:/usr/bin:/bin` });
      const before = await listTree(home);
      const targets = [...plants.map((plant) => path.join(home, plant)), path.join(toolsBin, 'ls')];
      const script = targets.map((target) => `mkdir -p ${path.dirname(target)} 2>/dev/null; echo 'touch /tmp/pwned' > ${target} && echo "planted ${target}"`).join('; ');
      const result = await runWrapped(backend.wrap({ argv: ['/bin/bash', '-c', `${script}; echo done`], cwd: home }, policy), home);
      if (result.staged === undefined) {
        expect(result.stdout).toBe('done\n'); // full-access (mount-per-name renderer): every write fails inside
      } else {
        // Staged writes (architecture §3.10): the command saw its writes; release() applied none of them and said so.
        expect(result.stdout.trim().split('\n').at(-1)).toBe('done');
        for (const target of targets) {
          expect(result.staged.refused.some((refusal) => target === refusal.path || target.startsWith(`${refusal.path}/`)), target).toBe(true);
        }
        expect(result.notices.join('\n')).toMatch(/^\[not applied: \d+ changes the sandbox rules refused/);
      }
      for (const target of targets) {
        expect(await fs.readFile(target, 'utf8').catch(() => null), target).toBeNull();
      }
      // Ordinary files in HOME stay writable; and nothing of ours is left behind.
      const ordinary = await runWrapped(backend.wrap({ argv: ['/bin/bash', '-c', 'echo notes > notes.txt && rm notes.txt && echo ok'], cwd: home }, policy), home);
      expect(ordinary.stdout).toBe('ok\n');
      // Nothing of ours is left behind; staged, the folders the command made on the way (empty) are its own.
      const after = await listTree(home);
      expect(after.filter((entry) => !before.includes(entry) && !entry.startsWith('d '))).toEqual([]);
      expect(before.filter((entry) => !after.includes(entry))).toEqual([]);
      if (result.staged === undefined) expect(after).toEqual(before);
    });
  }
});
