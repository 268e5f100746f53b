import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSourcesForChild } from './test-support/compile-sources-for-child.js';
import { startHost } from './test-support/host-processes.js';
import type { HostConfiguration } from './test-support/host-processes.js';
import { listTree, makeTempDirectory, requireBubblewrap } from './test-support/run-wrapped.js';

let build: string;
let root: string;

beforeAll(async () => {
  await requireBubblewrap();
  build = await compileSourcesForChild();
  root = await makeTempDirectory('ow-bwrap-many-');
});

afterAll(async () => {
  if (build !== undefined) await fs.rm(build, { recursive: true, force: true });
  if (root !== undefined) await fs.rm(root, { recursive: true, force: true });
});

/**
 * A prompt-injected command that keeps trying to write every protected name that does not exist
 * yet, for about a second: long enough for the other process's calls to start, stage, apply and
 * finish meanwhile.
 */
const writer = [
  'for i in $(seq 120); do',
  "  mkdir -p .git/hooks 2>/dev/null; echo 'echo pwned' > .git/hooks/pre-commit 2>/dev/null",
  "  echo ../evil > .git/commondir 2>/dev/null; printf '[core]\\n\\tfsmonitor = evil\\n' > .git/config 2>/dev/null",
  '  echo evil > .envrc 2>/dev/null; mkdir -p .vscode 2>/dev/null && echo "{}" > .vscode/tasks.json 2>/dev/null',
  '  echo evil > "$HOME/.bashrc" 2>/dev/null; echo evil > "$HOME/.bash_profile" 2>/dev/null',
  '  mkdir -p "$HOME/.ssh" 2>/dev/null && echo evil > "$HOME/.ssh/authorized_keys" 2>/dev/null',
  '  sleep 0.005',
  'done',
].join('\n');

describe('many openwork processes on one workspace, home and temp root (architecture §3.7)', () => {
  it('two processes side by side, each writing the protected names while the other\'s calls start and finish: nothing is ever written', async () => {
    const workspace = path.join(root, 'ws');
    const home = path.join(root, 'home');
    const temp = path.join(root, 'tmp');
    const openworkHome = path.join(root, 'openwork-home');
    for (const folder of [path.join(workspace, '.git'), home, temp, openworkHome]) await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(path.join(workspace, '.git/HEAD'), 'ref: refs/heads/main\n');
    await fs.writeFile(path.join(workspace, 'main.ts'), 'export {};\n');
    await fs.writeFile(path.join(home, '.profile'), 'echo profile-ran\n');
    const before = { workspace: await listTree(workspace), home: await listTree(home), temp: await listTree(temp) };

    // full-access: home is writable, so its start-up files are judged too. Short calls between the
    // writers: each stages and applies while the other process's writers run.
    const base = { workspace, home, temp, openworkHome, mode: 'full-access' as const, rounds: 5 };
    const first: HostConfiguration = { ...base, calls: [writer, 'true', 'true', 'true'] };
    const second: HostConfiguration = { ...base, calls: ['true', 'sleep 0.3', writer, 'true'] };
    const hosts = [startHost(build, first), startHost(build, second)];
    const ends = await Promise.all(hosts.map((host) => host.exited));
    for (const end of ends) expect(end, end.stderr).toMatchObject({ code: 0, signal: null });

    expect(await listTree(workspace)).toEqual(before.workspace);
    expect(await listTree(home)).toEqual(before.home);
    expect(await listTree(temp)).toEqual(before.temp);
    // Both hosts ended: no staging folder of theirs is left.
    expect(await fs.readdir(path.join(openworkHome, 'staging')).catch(() => [])).toEqual([]);
  });

  it('workspaces inside one shared temp root: commands that plant hooks in the temp root\'s and their parents\' `.git` leave no hooks folder there, and nothing of ours', async () => {
    const temp = path.join(root, 'shared-tmp');
    const home = path.join(root, 'home-2');
    const openworkHome = path.join(root, 'openwork-home-2');
    for (const folder of [path.join(temp, 'a/ws'), path.join(temp, 'b/ws'), home, openworkHome]) await fs.mkdir(folder, { recursive: true });
    const filler = [
      'for i in $(seq 40); do',
      '  mkdir -p "$TMP_ROOT/.git/hooks" ../.git/hooks 2>/dev/null',
      '  echo "touch pwned" > "$TMP_ROOT/.git/hooks/post-checkout" 2>/dev/null; echo "touch pwned" > ../.git/hooks/pre-commit 2>/dev/null',
      "  echo 'ref: refs/heads/main' > \"$TMP_ROOT/.git/HEAD\" 2>/dev/null",
      '  git status >/dev/null 2>&1; sleep 0.005',
      'done; true',
    ].join('\n').replaceAll('$TMP_ROOT', temp);
    const base = { home, temp, openworkHome, mode: 'workspace-write' as const, rounds: 3 };
    const first = startHost(build, { ...base, workspace: path.join(temp, 'a/ws'), calls: ['echo started; sleep 0.6', filler, 'true'] });
    await first.printed('started');
    const second = startHost(build, { ...base, workspace: path.join(temp, 'b/ws'), calls: [filler, 'sleep 0.2', 'true'] });
    const ends = await Promise.all([first.exited, second.exited]);
    for (const end of ends) expect(end, end.stderr).toMatchObject({ code: 0, signal: null });
    const tree = await listTree(temp);
    expect(tree.filter((line) => line.includes('hooks'))).toEqual([]);
    expect(await fs.readdir(path.join(openworkHome, 'staging')).catch(() => [])).toEqual([]);
  });
});
