// Wall time of `bash -c true` under bubblewrap vs unsandboxed, interleaved in one run (§3.4),
// plus bare bwrap as a floor: what any bwrap sandbox costs on this machine before our layout.
// Run after a build: `pnpm turbo run build --filter @openwork/sandbox && pnpm --filter @openwork/sandbox bench`.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BubblewrapBackend, createSandboxPolicy } from '../dist/index.js';

const runs = Number(process.env.RUNS ?? 50);
const targetOverheadMs = 15;

function run(argv, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, stdio: 'ignore', detached: true });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${argv[0]} exited ${code}`))));
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ow-bwrap-bench-')));
try {
  // A realistic workspace: a repository without hooks, no .envrc/.vscode/.idea (mount points to
  // create and remove on every call), a home with credentials to mask.
  const workspace = path.join(root, 'ws');
  const home = path.join(root, 'home');
  await fs.mkdir(path.join(workspace, '.git'), { recursive: true });
  await fs.writeFile(path.join(workspace, '.git/HEAD'), 'ref: refs/heads/main\n');
  await fs.mkdir(path.join(home, '.ssh'), { recursive: true });
  await fs.writeFile(path.join(home, '.ssh/id_ed25519'), 'key\n');
  await fs.mkdir(path.join(root, 'tmp'));
  const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, tempRoots: [path.join(root, 'tmp')] });
  const backend = new BubblewrapBackend();
  const availability = await backend.selfCheck();
  if (!availability.available) throw new Error(`bubblewrap unavailable: ${availability.reason}`);

  const command = ['/bin/bash', '-c', 'true'];
  const plain = [];
  const sandboxed = [];
  // bwrap's own floor (a mount namespace and nothing else), to tell its cost from our layout's.
  const floor = [];
  const floorArgv = [backend.bwrapPath, '--ro-bind', '/', '/', '--', ...command];
  for (let warmup = 0; warmup < 5; warmup += 1) {
    await run(command, workspace);
    const wrapped = backend.wrap({ argv: command, cwd: workspace }, policy);
    await run(wrapped.argv, workspace).finally(() => wrapped.release());
  }
  for (let index = 0; index < runs; index += 1) {
    let start = performance.now();
    await run(command, workspace);
    plain.push(performance.now() - start);

    start = performance.now();
    const wrapped = backend.wrap({ argv: command, cwd: workspace }, policy);
    try {
      await run(wrapped.argv, workspace);
    } finally {
      await wrapped.release();
    }
    sandboxed.push(performance.now() - start);

    start = performance.now();
    await run(floorArgv, workspace);
    floor.push(performance.now() - start);
  }
  const plainMedian = median(plain);
  const sandboxedMedian = median(sandboxed);
  const overhead = sandboxedMedian - plainMedian;
  console.log(`bash -c true, ${runs} runs each, interleaved (wrap + spawn + exit + release)`);
  console.log(`  unsandboxed median: ${plainMedian.toFixed(2)} ms`);
  console.log(`  bubblewrap  median: ${sandboxedMedian.toFixed(2)} ms  (${(sandboxedMedian / plainMedian).toFixed(2)}x the unsandboxed reference)`);
  console.log(`  overhead: ${overhead.toFixed(2)} ms (target <= ${targetOverheadMs} ms): ${overhead <= targetOverheadMs ? 'met' : 'NOT met'}`);
  const floorMedian = median(floor);
  console.log(`  bare 'bwrap --ro-bind / /' median: ${floorMedian.toFixed(2)} ms (floor overhead ${(floorMedian - plainMedian).toFixed(2)} ms; our layout adds ${(sandboxedMedian - floorMedian).toFixed(2)} ms)`);
  console.log(`  load average: ${os.loadavg().map((load) => load.toFixed(2)).join(' ')} on ${os.cpus().length} CPUs`);
} finally {
  await fs.rm(root, { recursive: true, force: true });
}
