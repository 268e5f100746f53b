// The bash tool's two costs, measured side by side in one run as paired medians
// (each round runs the competitors back to back, in alternating order; medians of the per-round
// differences and ratios are reported, never one shot):
//   1. Fixed cost per call: `bash` through a finalized toolset's `call` (wrap + spawn + release on
//      the real bubblewrap sandbox, result rendering) against a plain `child_process.spawn` of
//      `/bin/bash -c true`. Goal: ≤ 10 ms over the plain spawn (first 15 ms; docs/decisions/0031-no-per-session-sandbox.md). The parts are printed as well:
//      bare bwrap (`--ro-bind / /`), `wrap` + `release` alone, and the process backend's own cost.
//   2. Capture throughput: `head -c N /dev/zero` through `call` (bounded capture, 64 MiB spill,
//      progress) against the plain pipe `head -c N /dev/zero | cat > /dev/null`. Goal: ≥ 50 %.
// Run with `pnpm --filter @openwork/builtins bench:bash` (it builds first). Environment knobs:
// CALL_ROUNDS (default 40), THROUGHPUT_ROUNDS (default 7), BYTES (default 1 GiB).
import { spawn } from 'node:child_process';
import { mkdirSync, rmdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { NodeFileSystem } from '@openwork/fs-backend';
import { NodeProcessBackend } from '@openwork/process-backend';
import { BubblewrapBackend } from '@openwork/sandbox';
import { SpillDirectory, ToolSessionContext, finalizeBuiltinToolset, sessionSandboxPolicy } from '../dist/index.js';

const MiB = 1024 * 1024;
const callRounds = Number(process.env.CALL_ROUNDS ?? 40);
const throughputRounds = Number(process.env.THROUGHPUT_ROUNDS ?? 7);
const bytes = Number(process.env.BYTES ?? 1024 * MiB);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const milliseconds = async (action) => {
  const started = performance.now();
  await action();
  return performance.now() - started;
};
/** CPU time (ms) of this process and of its reaped children so far; load inflates wall time, not these. */
const ticksPerSecond = 100;
async function cpuNow() {
  const own = process.cpuUsage();
  const stat = await readFile('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 16 and 17 of /proc/<pid>/stat (cutime, cstime), counted from the state field (3).
  const children = (Number(fields[13]) + Number(fields[14])) * (1000 / ticksPerSecond);
  return { own: (own.user + own.system) / 1000, children };
}

/** A plain spawn: own process group, stdin ignored, both pipes read to the end, like any careful caller. */
function plainSpawn(argv, cwd, env, detached = true) {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, env, detached, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${argv.join(' ')} exited ${code}`))));
  });
}

const root = await realpath(await mkdtemp(join(tmpdir(), 'ow-bash-bench-')));
try {
  // A realistic session: a repository without hooks and without .envrc/.vscode/.idea (mount points
  // to create and remove on every call), a home with credentials to mask, temp roots.
  const workspace = join(root, 'workspace');
  const home = join(root, 'home');
  const temp = join(root, 'tmp');
  await mkdir(join(workspace, '.git'), { recursive: true });
  await writeFile(join(workspace, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_ed25519'), 'key\n');
  await mkdir(temp);
  const environment = { PATH: '/usr/bin:/bin', HOME: home, LANG: 'C' };
  const sandbox = new BubblewrapBackend();
  const session = new ToolSessionContext({
    workingDirectory: workspace,
    homeDirectory: home,
    sandbox,
    environment,
    filesystem: new NodeFileSystem(),
    processBackend: new NodeProcessBackend(),
    spill: new SpillDirectory({ openworkHome: join(home, '.openwork'), sessionId: 'bench', homeDirectory: home }),
  });
  const toolset = await finalizeBuiltinToolset(session);
  if (!toolset.escalationAvailable) throw new Error(`bubblewrap is unavailable here: ${JSON.stringify(await session.sandboxAvailability())}`);
  const sandboxPolicy = sessionSandboxPolicy(session, { tempRoots: [temp] });
  let calls = 0;
  const call = async (command, timeoutMs) => {
    const result = await toolset.call('bash', { command, ...(timeoutMs === undefined ? {} : { timeoutMs }) }, {
      callId: `bench-${++calls}`,
      signal: new AbortController().signal,
      sandboxPolicy,
      progress: () => undefined,
    });
    if (result.status !== 'succeeded') throw new Error(`bash ${command}: ${result.content[0].text}`);
    return result.content[0].text;
  };
  const backend = new NodeProcessBackend();
  const bashTrue = ['/bin/bash', '-c', 'true'];

  // 1. Fixed cost per call.
  // How many host folders and files one call plants as mount points (bwrap or wrap create them;
  // the machine-wide registry's record of the held claim lists them), and what creating and removing
  // as many empty folders costs this file system alone: on ext4 mounted with `discard`, for one,
  // each rmdir frees a block and waits for its discard.
  const registry = `/dev/shm/openwork-${process.getuid()}/mount-points`;
  const held = sandbox.wrap({ argv: bashTrue, cwd: workspace }, sandboxPolicy);
  let planted = 0;
  for (const name of await readdir(registry).catch(() => [])) {
    if (!name.startsWith('active.') || !name.includes(`-${process.pid}-`)) continue;
    planted += JSON.parse(await readFile(join(registry, name), 'utf8')).created.length;
  }
  await held.release();
  const scratchFolders = join(root, 'scratch-folders');
  await mkdir(scratchFolders);
  const series = { plain: [], tool: [], bareBwrap: [], wrappedPlain: [], wrapRelease: [], backend: [], folders: [] };
  const measureCallRound = async (index) => {
    const order = [
      ['plain', () => plainSpawn(bashTrue, workspace, environment)],
      ['tool', () => call('true')],
      ['bareBwrap', () => plainSpawn([sandbox.bwrapPath, '--ro-bind', '/', '/', '--', ...bashTrue], workspace, environment)],
      ['wrappedPlain', async () => {
        const wrapped = sandbox.wrap({ argv: bashTrue, cwd: workspace }, sandboxPolicy);
        try {
          await plainSpawn(wrapped.argv, workspace, environment);
        } finally {
          await wrapped.release();
        }
      }],
      ['wrapRelease', async () => sandbox.wrap({ argv: bashTrue, cwd: workspace }, sandboxPolicy).release()],
      ['folders', () => {
        for (let index = 0; index < planted; index += 1) mkdirSync(join(scratchFolders, String(index)));
        for (let index = 0; index < planted; index += 1) rmdirSync(join(scratchFolders, String(index)));
      }],
      ['backend', async () => {
        const outcome = await backend.spawn(bashTrue, { cwd: workspace, env: environment });
        if (outcome.exitCode !== 0) throw new Error('backend spawn failed');
      }],
    ];
    if (index % 2 === 1) order.reverse();
    const times = {};
    for (const [name, action] of order) {
      const before = await cpuNow();
      times[name] = await milliseconds(action);
      const after = await cpuNow();
      cpu[name].own += after.own - before.own;
      cpu[name].children += after.children - before.children;
    }
    return times;
  };
  const cpu = Object.fromEntries(Object.keys(series).map((name) => [name, { own: 0, children: 0 }]));
  for (let warmup = 0; warmup < 5; warmup += 1) await measureCallRound(warmup);
  for (const name of Object.keys(cpu)) cpu[name] = { own: 0, children: 0 };
  for (let round = 0; round < callRounds; round += 1) {
    const times = await measureCallRound(round);
    for (const name of Object.keys(series)) series[name].push(times[name]);
  }
  const cpuPerCall = (name) => `CPU ${(cpu[name].own / callRounds).toFixed(2)} ms here + ${(cpu[name].children / callRounds).toFixed(2)} ms in children`;
  const paired = (name) => median(series[name].map((time, index) => time - series.plain[index]));
  console.log(`bash per-call fixed cost: \`bash -c true\`, ${callRounds} paired rounds, medians`);
  console.log(`  plain child_process.spawn               : ${median(series.plain).toFixed(2)} ms  [reference]  ${cpuPerCall('plain')}`);
  console.log(`  bash tool through toolset.call          : ${median(series.tool).toFixed(2)} ms  ${cpuPerCall('tool')}`);
  console.log(`    overhead per call (paired median)     : ${paired('tool').toFixed(2)} ms (goal ≤ 10 ms, issue 25): ${paired('tool') <= 10 ? 'met' : 'NOT met'}`);
  console.log(`  parts: bare bwrap (--ro-bind / /)       : +${paired('bareBwrap').toFixed(2)} ms  ${cpuPerCall('bareBwrap')}  (any bubblewrap sandbox)`);
  console.log(`         our layout: wrap, plain spawn, release: +${paired('wrappedPlain').toFixed(2)} ms  ${cpuPerCall('wrappedPlain')}  (the same bwrap command line, without the tool)`);
  console.log(`         wrap + release, no spawn         : ${median(series.wrapRelease).toFixed(2)} ms  ${cpuPerCall('wrapRelease')}  (layout; mount points created and removed)`);
  console.log(`         ${planted} empty folders made and removed: ${median(series.folders).toFixed(2)} ms  ${cpuPerCall('folders')}  (this file system alone, no sandbox: as many as a call plants)`);
  console.log(`         process backend, no sandbox      : +${paired('backend').toFixed(2)} ms  ${cpuPerCall('backend')}  (NodeProcessBackend.spawn of the same argv)`);

  // 2. Capture throughput.
  await call(`head -c ${32 * MiB} /dev/zero`, 120_000);
  // References: the plain pipe (the goal's), and Node itself reading the same `head` through
  // child_process with the data dropped, with the writer in a session of its own — as every
  // sandboxed command is (the backend's setsid, bwrap --new-session). With sched_autogroup on a
  // loaded Linux, a reader and a writer in different sessions wake each other slowly; that floor
  // holds for any capture of a sandboxed command, so the tool is compared with it as well.
  const series2 = { pipe: [], nodeReader: [], tool: [] };
  const ratios = { pipe: [], nodeReader: [] };
  const pipeCommand = ['/bin/bash', '-c', `head -c ${bytes} /dev/zero | cat > /dev/null`];
  const throughputRound = {
    pipe: () => plainSpawn(pipeCommand, workspace, environment, false),
    nodeReader: () => plainSpawn(['head', '-c', String(bytes), '/dev/zero'], workspace, environment, true),
    tool: async () => {
      const text = await call(`head -c ${bytes} /dev/zero`, 120_000);
      const omitted = Number(/\.\.\. \((\d+) bytes omitted/.exec(text)?.[1]);
      if (omitted + 16 * 1024 !== bytes) throw new Error(`the tool read ${omitted + 16 * 1024} of ${bytes} bytes`);
    },
  };
  for (let round = 0; round < throughputRounds; round += 1) {
    const order = Object.keys(throughputRound);
    if (round % 2 === 1) order.reverse();
    const times = {};
    for (const name of order) times[name] = await milliseconds(throughputRound[name]);
    for (const name of order) series2[name].push(times[name]);
    ratios.pipe.push(times.pipe / times.tool);
    ratios.nodeReader.push(times.nodeReader / times.tool);
  }
  const rate = (ms) => (bytes / 1e6 / (ms / 1000)).toFixed(0);
  const perRound = (values) => values.map((value) => `${(value * 100).toFixed(0)}%`).join(' ');
  console.log(`bash capture throughput: ${bytes} bytes of /dev/zero, ${throughputRounds} paired rounds, medians`);
  console.log(`  plain pipe, head | cat > /dev/null      : ${rate(median(series2.pipe))} MB/s  [reference]`);
  console.log(`  Node reading head, writer in own session: ${rate(median(series2.nodeReader))} MB/s  [floor of any capture across a session boundary]`);
  console.log(`  bash tool (bwrap, capture, spill)       : ${rate(median(series2.tool))} MB/s`);
  const pipeRatio = median(ratios.pipe);
  console.log(`  paired ratio tool / plain pipe          : ${(pipeRatio * 100).toFixed(0)} %  (goal ≥ 50 %): ${pipeRatio >= 0.5 ? 'met' : 'NOT met'}  [per round: ${perRound(ratios.pipe)}]`);
  console.log(`  paired ratio tool / Node reader         : ${(median(ratios.nodeReader) * 100).toFixed(0)} %  [per round: ${perRound(ratios.nodeReader)}]`);
  console.log(`  load average ${loadavg().map((load) => load.toFixed(1)).join(' ')} on ${cpus().length} CPUs`);
} finally {
  await rm(root, { recursive: true, force: true });
}
