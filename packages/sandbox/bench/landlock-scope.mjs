// Per-call cost of the Landlock scope (architecture §3.7), paired and interleaved in one run:
//  1. `bash -c true` under bubblewrap through the scope helper vs the same call without it
//     (`BubblewrapBackend({ landlockScope: false })`): one more execve of a 577-byte static ELF
//     and three syscalls inside the sandbox, plus the byte-for-byte check of the helper in `wrap`;
//  2. the check of the helper `wrap` makes before each call (`landlockScope`), 2,000 times in a row;
//  3. the helper alone, outside any sandbox: `helper /bin/true` vs `/bin/true`;
//  4. a plain spawn of `bash -c true` (no sandbox) as the reference for "over a plain spawn".
// Medians of paired rounds, with the load average (the machine is shared; read ratios, not times).
// Run after a build: `pnpm turbo run build --filter @openwork/sandbox && node packages/sandbox/bench/landlock-scope.mjs`.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { median, run, timedCall } from './timed-call.mjs';
import { BubblewrapBackend, createSandboxPolicy, landlockScope } from '../dist/index.js';

const rounds = Number(process.env.RUNS ?? 40);

async function timedPlain(argv, cwd) {
  const start = performance.now();
  await run(argv, cwd);
  return performance.now() - start;
}

const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ow-landlock-bench-')));
try {
  const workspace = path.join(root, 'ws');
  const home = path.join(root, 'home');
  await fs.mkdir(workspace);
  await fs.mkdir(home);
  const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, tempRoots: [] });
  const scope = landlockScope(policy.openworkHome);
  if (!scope.scoped) throw new Error(`no Landlock scope on this machine: ${scope.reason}`);
  const scoped = new BubblewrapBackend();
  const unscoped = new BubblewrapBackend({ landlockScope: false });
  console.log(`load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}, ${os.cpus().length} CPUs, Landlock ABI ${scope.abi}`);
  for (let index = 0; index < 5; index += 1) {
    await timedCall(scoped, policy, workspace);
    await timedCall(unscoped, policy, workspace);
  }
  const calls = { scoped: [], unscoped: [], plain: [] };
  const helperAlone = { through: [], direct: [] };
  for (let index = 0; index < rounds; index += 1) {
    // Alternate which goes first, so drift in the machine's load falls on both sides.
    const order = index % 2 === 0 ? ['scoped', 'unscoped'] : ['unscoped', 'scoped'];
    for (const name of order) calls[name].push(await timedCall(name === 'scoped' ? scoped : unscoped, policy, workspace));
    calls.plain.push(await timedPlain(['/bin/bash', '-c', 'true'], workspace));
    helperAlone.through.push(await timedPlain([scope.helperPath, '/bin/true'], workspace));
    helperAlone.direct.push(await timedPlain(['/bin/true'], workspace));
  }
  const differences = calls.scoped.map((value, index) => value - calls.unscoped[index]);
  const [a, b, p] = [median(calls.scoped), median(calls.unscoped), median(calls.plain)];
  console.log(`bash -c true: scoped ${a.toFixed(2)} ms, unscoped ${b.toFixed(2)} ms, ratio ${(a / b).toFixed(3)}, median paired difference ${median(differences).toFixed(2)} ms (${rounds} rounds)`);
  console.log(`plain spawn of bash -c true (no sandbox) ${p.toFixed(2)} ms: a sandboxed call costs ${(a - p).toFixed(2)} ms over it, ${(median(differences)).toFixed(2)} ms of which is the scope`);
  const [ht, hd] = [median(helperAlone.through), median(helperAlone.direct)];
  const helperDifferences = helperAlone.through.map((value, index) => value - helperAlone.direct[index]);
  console.log(`helper alone (no sandbox): helper /bin/true ${ht.toFixed(2)} ms, /bin/true ${hd.toFixed(2)} ms, median paired difference ${median(helperDifferences).toFixed(2)} ms`);
  const checks = 2000;
  const checkStart = performance.now();
  for (let index = 0; index < checks; index += 1) landlockScope(policy.openworkHome);
  console.log(`check of the helper before a call: ${(((performance.now() - checkStart) / checks) * 1000).toFixed(1)} µs`);
  console.log(`load average after ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`);
} finally {
  await fs.rm(root, { recursive: true, force: true });
}
