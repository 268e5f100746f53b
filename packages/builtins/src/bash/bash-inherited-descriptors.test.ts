import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBubblewrap } from './test-support/bash-fixture.js';

/**
 * Architecture §3.7: only stdin, stdout and stderr cross into a started process. A launcher that
 * ran `exec {fd}>>file` without close-on-exec hands that descriptor to openwork, and libuv passes
 * it on to every child. Here a real parent process is started with such descriptors (3, 20 and
 * 300, all open on a file outside every root) and runs bash through the real process backend —
 * sandboxed by bubblewrap and unsandboxed — which tries to write through every fd from 3 to 300.
 */
let root: string;
let outside: string;
let workspace: string;

beforeAll(async () => {
  await requireBubblewrap();
  root = await mkdtemp(join(tmpdir(), 'ow-inherited-fds-'));
  outside = join(root, 'outside.log');
  workspace = join(root, 'ws');
  await mkdir(workspace);
  await writeFile(outside, 'before\n');
});

afterAll(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

/** The child: runs one bash script through NodeProcessBackend, wrapped by bubblewrap or not. */
function parentScript(sandboxed: boolean): string {
  const processBackend = import.meta.resolve('@openwork/process-backend');
  const sandbox = import.meta.resolve('@openwork/sandbox');
  return `
    const { NodeProcessBackend } = await import(${JSON.stringify(processBackend)});
    const { BubblewrapBackend, createSandboxPolicy } = await import(${JSON.stringify(sandbox)});
    const [workspace, home] = process.argv.slice(-2);
    const script = 'for fd in $(seq 3 300); do echo "through $fd" >&$fd; done >/dev/null 2>&1; ls -l /proc/$$/fd; true';
    let argv = ['/bin/bash', '-c', script];
    let release = async () => {};
    if (${sandboxed}) {
      const policy = createSandboxPolicy({ mode: 'full-access', workspaceRoots: [workspace], homeDirectory: home, tempRoots: [] });
      const wrapped = new BubblewrapBackend().wrap({ argv, cwd: workspace }, policy);
      argv = wrapped.argv;
      release = wrapped.release;
    }
    const outcome = await new NodeProcessBackend().spawn(argv, { cwd: workspace, env: { PATH: process.env.PATH, HOME: home, LANG: 'C' }, timeoutMs: 20000 });
    await release();
    process.stdout.write(outcome.output);
  `;
}

async function runParent(sandboxed: boolean): Promise<string> {
  const fd = openSync(outside, 'a');
  try {
    // stdio[3], stdio[20] and stdio[300] of the parent: the same file, inherited without close-on-exec.
    const stdio: Array<'ignore' | 'pipe' | 'inherit' | number> = ['ignore', 'pipe', 'inherit'];
    for (let index = 3; index <= 300; index += 1) stdio.push(index === 3 || index === 20 || index === 300 ? fd : 'ignore');
    const child = spawn(process.execPath, ['--input-type=module', '-e', parentScript(sandboxed), workspace, root], { stdio });
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    await new Promise<void>((resolve, reject) => child.once('error', reject).once('close', () => resolve()));
    return output;
  } finally {
    closeSync(fd);
  }
}

describe('inherited descriptors (architecture §3.7)', () => {
  for (const sandboxed of [true, false]) {
    it(`bash ${sandboxed ? 'in bubblewrap' : 'without a sandbox'} cannot write through any fd from 3 to 300 the host inherited`, async () => {
      const output = await runParent(sandboxed);
      // (bash saves the loop's own stdout and stderr at fds 10 and 11, so "through 10/11" reach the output.)
      const descriptors = [...output.matchAll(/ (\d+) -> (.*)$/gm)].map((match) => [match[1] ?? '', match[2] ?? ''] as const);
      expect(descriptors.map(([fd]) => fd).slice(0, 3)).toEqual(['0', '1', '2']);
      // Above stderr nothing of the host's: at most /dev/null where a descriptor was inherited.
      for (const [fd, target] of descriptors.filter(([fd]) => Number(fd) > 2)) expect(target, `fd ${fd}`).toBe('/dev/null');
      expect(output).not.toContain(outside);
      expect(await readFile(outside, 'utf8')).toBe('before\n');
    });
  }
});
