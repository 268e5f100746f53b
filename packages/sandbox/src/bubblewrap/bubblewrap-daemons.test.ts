import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapBackend, createSandboxPolicy } from '../index.js';
import type { SandboxPolicy } from '../index.js';
import { makeTempDirectory, requireBubblewrap, runWrapped } from './test-support/run-wrapped.js';

const backend = new BubblewrapBackend();
let root: string;
let workspace: string;
let policy: SandboxPolicy;

beforeAll(async () => {
  await requireBubblewrap();
  root = await makeTempDirectory('ow-bwrap-daemons-');
  workspace = path.join(root, 'ws');
  await fsp.mkdir(workspace);
  await fsp.mkdir(path.join(root, 'home'));
  await fsp.mkdir(path.join(root, 'tmp'));
  policy = createSandboxPolicy({
    mode: 'workspace-write',
    workspaceRoots: [workspace],
    homeDirectory: path.join(root, 'home'),
    tempRoots: [path.join(root, 'tmp')],
  });
});

afterAll(async () => {
  if (root !== undefined) await fsp.rm(root, { recursive: true, force: true });
});

/** Host pids whose command line carries `token` (the daemon puts it in its argv). */
function processesWith(token: string): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(token)) found.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

/** Host pids of the daemon loop itself (its argv is `sh -c <loop>`, not the command that started it). */
function daemonsWith(token: string): number[] {
  return processesWith(token).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('sh\0-c\0n=0;');
    } catch {
      return false;
    }
  });
}

/** The counter as the sandboxed process `pid` sees it (0 when it cannot be read). */
function countSeenBy(pid: number, marker: string): number {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/root${marker}`, 'utf8').trim()) || 0;
  } catch {
    return 0;
  }
}

/** Poll until `condition` holds, at most `attempts` × 50 ms (a bound, not a timing assertion). */
async function eventually(condition: () => boolean, attempts = 200): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

/**
 * A daemon that keeps bumping a counter in `marker`; `token` in its argv lets the host find it.
 * Each way of escaping the command's process tree that users' tools actually use.
 */
const daemonisers: Record<string, (loop: string) => string> = {
  setsid: (loop) => `setsid sh -c '${loop}' &`,
  'double fork': (loop) => `( ( sh -c '${loop}' & ) & );`,
  'nohup background': (loop) => `nohup sh -c '${loop}' >/dev/null 2>&1 &`,
};

function daemonScript(style: string, marker: string, token: string): string {
  const loop = `n=0; while :; do n=$((n+1)); echo $n > ${marker}; sleep 0.05; done; : ${token}`;
  return (daemonisers[style] as (loop: string) => string)(loop);
}

describe('daemons do not outlive the sandboxed command', () => {
  for (const style of Object.keys(daemonisers)) {
    it(`a ${style} daemon dies when the command exits normally`, async () => {
      const token = `ow-daemon-${randomUUID()}`;
      const marker = path.join(workspace, `${token}.count`);
      // The command waits until the daemon has written once, then exits 0.
      const script = `${daemonScript(style, marker, token)} while [ ! -s ${marker} ]; do sleep 0.01; done; exit 0`;
      const result = await runWrapped(backend.wrap({ argv: ['/bin/bash', '-c', script], cwd: workspace }, policy), workspace);
      expect(result.code).toBe(0);
      expect(Number(fs.readFileSync(marker, 'utf8'))).toBeGreaterThan(0);
      expect(await eventually(() => processesWith(token).length === 0)).toBe(true);
    });

    it(`a ${style} daemon dies when bwrap's process group is SIGKILLed`, async () => {
      const token = `ow-daemon-${randomUUID()}`;
      const marker = path.join(workspace, `${token}.count`);
      const wrapped = backend.wrap({ argv: ['/bin/bash', '-c', `${daemonScript(style, marker, token)} sleep 600`], cwd: workspace }, policy);
      let released = false;
      try {
        const [file, ...args] = wrapped.argv as [string, ...string[]];
        const child = spawn(file, args, { cwd: workspace, detached: true, stdio: 'ignore' });
        const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
        // Staged writes (architecture §3.10): the counter reaches the host only at release(), so the
        // daemon is watched as the sandbox sees it, through its own root (`/proc/<pid>/root`).
        let seen = 0;
        expect(
          await eventually(() => {
            seen = Math.max(0, ...daemonsWith(token).map((pid) => countSeenBy(pid, marker)));
            return seen > 0;
          }),
        ).toBe(true);
        expect(fs.existsSync(marker)).toBe(false); // nothing reached the host while the command ran
        process.kill(-(child.pid as number), 'SIGKILL'); // what a process backend does on timeout
        await closed;
        expect(await eventually(() => processesWith(token).length === 0)).toBe(true);
        // What the daemon wrote before it died is applied at release(), as without staging; and the
        // counter stops: read it twice across a few daemon periods.
        const report = await wrapped.release();
        released = true;
        expect(report?.notices).toEqual([]);
        const stopped = fs.readFileSync(marker, 'utf8');
        expect(Number(stopped)).toBeGreaterThanOrEqual(seen);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(fs.readFileSync(marker, 'utf8')).toBe(stopped);
        expect(processesWith(token)).toEqual([]);
      } finally {
        if (!released) await wrapped.release();
      }
    });
  }
});
