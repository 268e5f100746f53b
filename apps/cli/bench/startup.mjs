#!/usr/bin/env node
// Start-up benchmark (architecture §5: `openwork call` start-up ≤ 250 ms). Each
// round runs a bare `node -e 0` and then every case once, each a new process, as a user starts
// them: `openwork --version`, `openwork --help`, `openwork call read` of a small file (with the
// compile cache, once more with NODE_DISABLE_COMPILE_CACHE=1, and once from the unbundled modules
// of `dist/bin/` for comparison), and `openwork mcp` from spawn
// to the answer of its first `tools/list` (initialize, initialized, tools/list over stdio). The
// table gives each case's median, the bare median, the median of the per-round ratios and the
// median of the per-round differences, the same for CPU time (user + system, from /proc on Linux:
// steadier than wall time on a loaded machine), and the load average before and after.
// Run after a build: `pnpm --filter openwork bench` (ROUNDS=n, at least 5; default 9).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../dist/bundle/openwork.js', import.meta.url));
// The compiled modules before bundling (tsc's output, the same code): what the bundle saves.
const unbundledBin = fileURLToPath(new URL('../dist/bin/openwork.js', import.meta.url));
const rounds = Math.max(5, Number(process.env.ROUNDS ?? 9));
const root = realpathSync(mkdtempSync(join(tmpdir(), 'openwork-bench-')));
const workspace = join(root, 'workspace');
mkdirSync(workspace);
writeFileSync(join(workspace, 'small.txt'), 'one\ntwo\nthree\n');
const openworkHome = join(root, 'home', '.openwork');
const env = { PATH: process.env.PATH, HOME: join(root, 'home'), OPENWORK_HOME: openworkHome };

/** Milliseconds from spawn to exit of `node <argv>`; throws on a non-zero exit. */
function timeExit(argv, extraEnv = {}) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, argv, { env: { ...env, ...extraEnv }, cwd: workspace, stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}

/** Milliseconds from spawn of `openwork mcp` to the answer of its first tools/list; then it is closed. */
function timeMcpToolsList() {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [bin, 'mcp', '--workspace', workspace], { env, cwd: workspace, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let elapsed;
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      for (const line of stdout.split('\n').slice(0, -1)) {
        const message = JSON.parse(line);
        if (message.id !== 2 || elapsed !== undefined) continue;
        elapsed = Number(process.hrtime.bigint() - start) / 1e6;
        if (!Array.isArray(message.result?.tools) || message.result.tools.length === 0) reject(new Error(`tools/list answered ${line}`));
        child.stdin.end();
      }
    });
    child.on('error', reject);
    child.on('close', (status) => (elapsed === undefined ? reject(new Error(`openwork mcp exited ${status} before tools/list: ${stderr}`)) : resolve(elapsed)));
    const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'startup-bench', version: '1' } } });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/list', params: {} });
  });
}

const readArgv = [bin, 'call', 'read', '{"path":"small.txt"}', '--workspace', workspace];
const cases = [
  { name: 'openwork --version', run: () => timeExit([bin, '--version']) },
  { name: 'openwork --help', run: () => timeExit([bin, '--help']) },
  { name: 'openwork call read small.txt', run: () => timeExit(readArgv) },
  { name: 'openwork call read, no compile cache', run: () => timeExit(readArgv, { NODE_DISABLE_COMPILE_CACHE: '1' }) },
  { name: 'call read, unbundled (tsc output)', run: () => timeExit([unbundledBin, ...readArgv.slice(1)]) },
  { name: 'openwork mcp to first tools/list', run: timeMcpToolsList },
];

/**
 * CPU milliseconds (user + system) of this process's ended children so far, from /proc (Linux; 10 ms
 * ticks), or undefined elsewhere. Steadier than wall time on a loaded machine: waiting for a core
 * is not counted.
 */
function childrenCpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10; // cutime, cstime (fields 16, 17), at USER_HZ 100
  } catch {
    return undefined;
  }
}

/** Wall and CPU milliseconds of one run. */
async function measure(run) {
  const before = childrenCpuMs();
  const wall = await run();
  const after = childrenCpuMs();
  return { wall, cpu: before === undefined || after === undefined ? Number.NaN : after - before };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const load = () => loadavg().map((value) => value.toFixed(2)).join(' ');

// Outside the rounds: the first call creates the OpenWork home and the store; the second fills
// the compile cache, which is used only once the home exists (as after a user's first call).
timeExit(readArgv);
timeExit(readArgv);
timeExit([unbundledBin, ...readArgv.slice(1)]);
await timeMcpToolsList();
const loadBefore = load();
const bare = [];
const own = cases.map(() => []);
for (let round = 0; round < rounds; round += 1) {
  bare.push(await measure(() => timeExit(['-e', '0'])));
  for (const [index, item] of cases.entries()) own[index].push(await measure(item.run));
}
const loadAfter = load();

const ms = (value) => (Number.isNaN(value) ? 'n/a' : `${value.toFixed(0)} ms`);
console.log(`openwork start-up, ${rounds} paired rounds against node -e 0 (Node ${process.version}); load average ${loadBefore} before, ${loadAfter} after`);
console.log(`compile cache in the OpenWork home: ${existsSync(join(openworkHome, 'compile-cache')) ? 'yes' : 'no'}`);
console.log(`${'case'.padEnd(38)} ${'median'.padStart(8)} ${'node -e 0'.padStart(10)} ${'ratio'.padStart(7)} ${'over bare'.padStart(10)} ${'CPU'.padStart(8)} ${'CPU bare'.padStart(9)} ${'CPU over'.padStart(9)}`);
for (const [index, item] of cases.entries()) {
  const of = (key) => own[index].map((run) => run[key]);
  const ratio = median(own[index].map((run, round) => run.wall / bare[round].wall));
  const over = median(own[index].map((run, round) => run.wall - bare[round].wall));
  const cpuOver = median(own[index].map((run, round) => run.cpu - bare[round].cpu));
  console.log(
    `${item.name.padEnd(38)} ${ms(median(of('wall'))).padStart(8)} ${ms(median(bare.map((run) => run.wall))).padStart(10)} ${`${ratio.toFixed(2)}x`.padStart(7)} ${`+${over.toFixed(0)} ms`.padStart(10)} ${ms(median(of('cpu'))).padStart(8)} ${ms(median(bare.map((run) => run.cpu))).padStart(9)} ${`+${ms(cpuOver)}`.padStart(9)}`,
  );
}
rmSync(root, { recursive: true, force: true });
