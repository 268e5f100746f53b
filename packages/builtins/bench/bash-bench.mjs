// The bash tool's costs, measured side by side in one run as paired medians (each round runs the
// competitors back to back, in alternating order; medians of the per-round differences and
// ratios are reported, never one shot):
//   1. Fixed cost per call: `bash` through a finalized toolset's `call` (wrap + spawn + release on
//      the real bubblewrap sandbox, result rendering) against a plain `child_process.spawn` of
//      `/bin/bash -c true`, for both layouts of the bubblewrap backend — staged writes (the
//      default: each writable folder an overlay, `release()` applies the changes by rule) and the
//      previous layout (one read-only mount per protected name, host placeholders: the sandbox
//      package of the last commit that had it, built from git history by `previousSandbox`) — and for Anthropic's sandbox-runtime (srt, `SandboxManager.wrapWithSandbox`
//      + a spawn of what it returns, at its nearest configuration to ours: see `srtConfiguration`).
//      Goals (architecture §5): ≤ 10 ms over the plain spawn, no slower than the previous layout,
//      never slower than srt. The parts are printed as well: bare bwrap (`--ro-bind / /`), each
//      layout's `wrap` + spawn + `release` without the tool, `wrap` + `release` alone, srt's wrap
//      alone, and the process backend's own cost.
//   2. Commit cost of staged writes: a command that creates 1, 1,000 and 20,000 files, through the
//      tool with each layout (paired), and `release()` alone for each layout (the staged one reads
//      the upper layer, judges and applies every path; the previous one removes its mount points).
//   3. Capture throughput: `head -c N /dev/zero` through `call` (bounded capture, 64 MiB spill,
//      progress) against the plain pipe `head -c N /dev/zero | cat > /dev/null`. Goal: ≥ 50 %.
// Run with `pnpm --filter @openwork/builtins bench:bash` (it builds first). Environment knobs:
// CALL_ROUNDS (default 40), COMMIT_ROUNDS (default 7; 20,000 files: at least 3, half as many),
// COMMIT_FILES (default 1,1000,20000), THROUGHPUT_ROUNDS (default 7), BYTES (default 1 GiB),
// ONLY (`call`, `commit`, `throughput` or `compare`: that part alone). srt needs `socat` on PATH for its
// initialization (it starts its network bridge there, even though this configuration routes no
// command through it) and `rg`; without them its rows say why they are missing.
import { spawn } from 'node:child_process';
import { mkdirSync, rmdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { NodeFileSystem } from '@openwork/fs-backend';
import { NodeProcessBackend } from '@openwork/process-backend';
import { BubblewrapBackend } from '@openwork/sandbox';
import { loadAverage, printComparisonTable } from '../../../tooling/bench/search-against-rg.mjs';
import { PREVIOUS_SANDBOX_COMMIT, previousSandbox } from '../../../tooling/bench/previous-sandbox.mjs';
import { SandboxManager } from '@anthropic-ai/sandbox-runtime';
import { SpillDirectory, ToolSessionContext, finalizeBuiltinToolset, sessionSandboxPolicy } from '../dist/index.js';

const MiB = 1024 * 1024;
const callRounds = Number(process.env.CALL_ROUNDS ?? 40);
const commitRounds = Number(process.env.COMMIT_ROUNDS ?? 7);
const commitFiles = (process.env.COMMIT_FILES ?? '1,1000,20000').split(',').map(Number);
const only = process.env.ONLY;
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

// The compare-and-swap of staged writes has its own part (staged-compare-bench.mjs): alone with
// ONLY=compare, after the others otherwise.
if (only === 'compare') {
  await import('./staged-compare-bench.mjs');
  process.exit(0);
}
const root = await realpath(await mkdtemp(join(tmpdir(), 'ow-bash-bench-')));
const startedIn = process.cwd();
let srtInitialized = false;
// The previous layout is no longer in the package: built from the last commit that had it.
const previousBuild = await previousSandbox();
const previousModule = await import(previousBuild.url);
try {
  // A realistic session: a repository without hooks and without .envrc/.vscode/.idea (for the
  // previous layout, mount points to create and remove on every call), a home with credentials
  // to mask, temp roots.
  const workspace = join(root, 'workspace');
  const home = join(root, 'home');
  const temp = join(root, 'tmp');
  await mkdir(join(workspace, '.git'), { recursive: true });
  await writeFile(join(workspace, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_ed25519'), 'key\n');
  await mkdir(temp);
  // srt gets a workspace of its own with the same content: it creates files on the host for the
  // names it protects (`.bashrc`, `.gitconfig`, `.vscode`, … in the workspace), which would change
  // the previous layout's work (placeholders it would no longer have to make) in a shared one.
  const srtWorkspace = join(root, 'workspace-srt');
  await mkdir(join(srtWorkspace, '.git'), { recursive: true });
  await writeFile(join(srtWorkspace, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  const environment = { PATH: '/usr/bin:/bin', HOME: home, LANG: 'C' };
  const designs = { staged: new BubblewrapBackend(), previous: new previousModule.BubblewrapBackend() };
  const sandbox = designs.staged;
  /** One session and finalized toolset per layout, over the same workspace, home and temp roots. */
  const openToolset = async (name) => {
    const session = new ToolSessionContext({
      workingDirectory: workspace,
      homeDirectory: home,
      sandbox: designs[name],
      environment,
      filesystem: new NodeFileSystem(),
      processBackend: new NodeProcessBackend(),
      spill: new SpillDirectory({ openworkHome: join(home, '.openwork'), sessionId: `bench-${name}`, homeDirectory: home }),
    });
    const toolset = await finalizeBuiltinToolset(session);
    if (!toolset.escalationAvailable) throw new Error(`bubblewrap is unavailable here: ${JSON.stringify(await session.sandboxAvailability())}`);
    const sandboxPolicy = sessionSandboxPolicy(session, { tempRoots: [temp] });
    let calls = 0;
    const call = async (command, timeoutMs) => {
      const result = await toolset.call('bash', { command, ...(timeoutMs === undefined ? {} : { timeoutMs }) }, {
        callId: `bench-${name}-${++calls}`,
        signal: new AbortController().signal,
        sandboxPolicy,
        progress: () => undefined,
      });
      if (result.status !== 'succeeded') throw new Error(`bash ${command}: ${result.content[0].text}`);
      return result.content[0].text;
    };
    return { call, sandboxPolicy };
  };
  const tools = { staged: await openToolset('staged'), previous: await openToolset('previous') };
  const { call, sandboxPolicy } = tools.staged;
  const backend = new NodeProcessBackend();
  const bashTrue = ['/bin/bash', '-c', 'true'];
  /** A layout without the tool: wrap, a plain spawn of the wrapped argv, release. */
  const layoutOnce = async (design, argv = bashTrue, cwd = workspace) => {
    const wrapped = designs[design].wrap({ argv, cwd }, tools[design].sandboxPolicy);
    try {
      await plainSpawn(wrapped.argv, cwd, environment);
    } finally {
      await wrapped.release();
    }
  };
  /** How many mounts a command sees inside a layout (lines of its mountinfo). */
  const mountsInside = async (design) => {
    const wrapped = designs[design].wrap({ argv: ['/bin/bash', '-c', 'wc -l < /proc/self/mountinfo'], cwd: workspace }, tools[design].sandboxPolicy);
    try {
      return await new Promise((resolve, reject) => {
        const child = spawn(wrapped.argv[0], wrapped.argv.slice(1), { cwd: workspace, env: environment, stdio: ['ignore', 'pipe', 'ignore'] });
        let text = '';
        child.stdout.on('data', (chunk) => (text += chunk));
        child.once('error', reject);
        child.once('close', () => resolve(text.trim()));
      });
    } finally {
      await wrapped.release();
    }
  };

  // Anthropic's sandbox-runtime at its nearest configuration to ours (workspace-write, network
  // allowed, credentials unreadable): writes allowed in its workspace and our temp root; `~/.ssh`
  // unreadable; no `allowedDomains`, so srt restricts no network (no `--unshare-net`, no proxy in
  // the command) as our `network: 'allow'` does. Its own defaults stay: its mandatory write
  // denies (shell start-up files, git hooks and config, editor folders, found by a scan of the
  // working folder) and its seccomp filter for UNIX sockets. `wrapWithSandbox` reads the current
  // folder for that scan and for relative paths: the bench runs in srt's workspace.
  const srtConfiguration = {
    network: { deniedDomains: [] },
    filesystem: { denyRead: [join(home, '.ssh')], allowWrite: [srtWorkspace, temp], denyWrite: [] },
  };
  let srtUnavailable;
  try {
    process.chdir(srtWorkspace);
    await SandboxManager.initialize(srtConfiguration);
    srtInitialized = true;
  } catch (error) {
    srtUnavailable = error instanceof Error ? error.message : String(error);
  }
  const srtWrap = () => SandboxManager.wrapWithSandbox('true');
  /** srt per command, as its README shows: the wrapped string run by a shell, spawned like ours. */
  const srtCall = async () => plainSpawn(['/bin/sh', '-c', await srtWrap()], srtWorkspace, environment);
  const srtLabel = 'srt 0.0.83: wrapWithSandbox + spawn';
  if (srtUnavailable === undefined) await srtCall();

  if (only === undefined || only === 'call') {
    // 1. Fixed cost per call.
    // How many host folders and files one call of the previous layout plants as mount points
    // (bwrap or wrap create them; the machine-wide registry's record of the held claim lists
    // them), and what creating and removing as many empty folders costs this file system alone:
    // on ext4 mounted with `discard`, for one, each rmdir frees a block and waits for its discard.
    const registry = `/dev/shm/openwork-${process.getuid()}/mount-points`;
    const held = designs.previous.wrap({ argv: bashTrue, cwd: workspace }, tools.previous.sandboxPolicy);
    let planted = 0;
    for (const name of await readdir(registry).catch(() => [])) {
      if (!name.startsWith('active.') || !name.includes(`-${process.pid}-`)) continue;
      planted += JSON.parse(await readFile(join(registry, name), 'utf8')).created.length;
    }
    await held.release();
    const mounts = { staged: await mountsInside('staged'), previous: await mountsInside('previous') };
    const scratchFolders = join(root, 'scratch-folders');
    await mkdir(scratchFolders);
    const competitors = [
      ['plain', () => plainSpawn(bashTrue, workspace, environment)],
      ['staged', () => tools.staged.call('true')],
      ['previous', () => tools.previous.call('true')],
      ...(srtUnavailable === undefined ? [['srt', srtCall], ['srtWrap', srtWrap]] : []),
      ['bareBwrap', () => plainSpawn([sandbox.bwrapPath, '--ro-bind', '/', '/', '--', ...bashTrue], workspace, environment)],
      ['stagedLayout', () => layoutOnce('staged')],
      ['previousLayout', () => layoutOnce('previous')],
      ['stagedWrapRelease', async () => designs.staged.wrap({ argv: bashTrue, cwd: workspace }, tools.staged.sandboxPolicy).release()],
      ['previousWrapRelease', async () => designs.previous.wrap({ argv: bashTrue, cwd: workspace }, tools.previous.sandboxPolicy).release()],
      ['folders', () => {
        for (let index = 0; index < planted; index += 1) mkdirSync(join(scratchFolders, String(index)));
        for (let index = 0; index < planted; index += 1) rmdirSync(join(scratchFolders, String(index)));
      }],
      ['backend', async () => {
        const outcome = await backend.spawn(bashTrue, { cwd: workspace, env: environment });
        if (outcome.exitCode !== 0) throw new Error('backend spawn failed');
      }],
    ];
    const series = Object.fromEntries(competitors.map(([name]) => [name, []]));
    const cpu = Object.fromEntries(competitors.map(([name]) => [name, { own: 0, children: 0 }]));
    const measureCallRound = async (index) => {
      const order = [...competitors];
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
    const loadBefore = loadAverage();
    for (let warmup = 0; warmup < 5; warmup += 1) await measureCallRound(warmup);
    for (const name of Object.keys(cpu)) cpu[name] = { own: 0, children: 0 };
    for (let round = 0; round < callRounds; round += 1) {
      const times = await measureCallRound(round);
      for (const name of Object.keys(series)) series[name].push(times[name]);
    }
    const loadAfter = loadAverage();
    const cpuPerCall = (name) => `CPU ${(cpu[name].own / callRounds).toFixed(2)} ms here + ${(cpu[name].children / callRounds).toFixed(2)} ms in children`;
    const pairedDifference = (name, reference = 'plain') => median(series[name].map((time, index) => time - series[reference][index]));
    const paired = (name) => pairedDifference(name);
    const signed = (value) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)} ms`;
    const verdict = (met) => (met ? 'met' : 'NOT met');
    console.log(`bash per-call fixed cost: \`bash -c true\`, ${callRounds} paired rounds, medians; load average (1, 5, 15 min) ${loadBefore} before, ${loadAfter} after, ${cpus().length} CPUs`);
    console.log(`  plain child_process.spawn                        : ${median(series.plain).toFixed(2)} ms  [reference]  ${cpuPerCall('plain')}`);
    console.log(`  bash tool, staged writes (default)               : ${median(series.staged).toFixed(2)} ms  ${signed(paired('staged'))} over the plain spawn (paired)  ${cpuPerCall('staged')}`);
    console.log(`  bash tool, previous layout (${PREVIOUS_SANDBOX_COMMIT})       : ${median(series.previous).toFixed(2)} ms  ${signed(paired('previous'))} over the plain spawn (paired)  ${cpuPerCall('previous')}`);
    if (srtUnavailable === undefined) {
      console.log(`  ${srtLabel.padEnd(48)} : ${median(series.srt).toFixed(2)} ms  ${signed(paired('srt'))} over the plain spawn (paired)  ${cpuPerCall('srt')}`);
    } else {
      console.log(`  ${srtLabel.padEnd(48)} : not measured: ${srtUnavailable}`);
    }
    console.log(`  staged − previous (paired)                       : ${signed(pairedDifference('staged', 'previous'))}`);
    if (srtUnavailable === undefined) console.log(`  staged − srt (paired)                            : ${signed(pairedDifference('staged', 'srt'))}`);
    console.log(`  goals (architecture §5): staged ≤ +10 ms over the plain spawn: ${verdict(paired('staged') <= 10)}; no slower than the previous layout: ${verdict(pairedDifference('staged', 'previous') <= 0)}; never slower than srt: ${srtUnavailable === undefined ? verdict(pairedDifference('staged', 'srt') <= 0) : 'not measured'}`);
    console.log(`  parts: bare bwrap (--ro-bind / /)                : ${signed(paired('bareBwrap'))}  ${cpuPerCall('bareBwrap')}  (any bubblewrap sandbox)`);
    console.log(`         staged layout: wrap, plain spawn, release : ${signed(paired('stagedLayout'))}  ${cpuPerCall('stagedLayout')}  (the same bwrap command line, without the tool; ${mounts.staged} mounts inside)`);
    console.log(`         previous layout: wrap, spawn, release     : ${signed(paired('previousLayout'))}  ${cpuPerCall('previousLayout')}  (${mounts.previous} mounts inside)`);
    console.log(`         wrap + release, no spawn: staged          : ${median(series.stagedWrapRelease).toFixed(2)} ms  ${cpuPerCall('stagedWrapRelease')}  (staging folder made, upper layer read, removed)`);
    console.log(`         wrap + release, no spawn: previous        : ${median(series.previousWrapRelease).toFixed(2)} ms  ${cpuPerCall('previousWrapRelease')}  (mount points created and removed)`);
    if (srtUnavailable === undefined) console.log(`         srt wrapWithSandbox alone, no spawn       : ${median(series.srtWrap).toFixed(2)} ms  ${cpuPerCall('srtWrap')}`);
    console.log(`         ${planted} empty folders made and removed: ${median(series.folders).toFixed(2)} ms  ${cpuPerCall('folders')}  (this file system alone, no sandbox: as many as a call of the previous layout plants)`);
    console.log(`         process backend, no sandbox               : ${signed(paired('backend'))}  ${cpuPerCall('backend')}  (NodeProcessBackend.spawn of the same argv)`);
  }

  if (only === undefined || only === 'commit') {
    // 2. Commit cost of staged writes. Each round: for each layout (order alternating), the tool
    // call, then the same command wrapped and spawned here with `release()` timed alone; the
    // files are checked on the host (all N, in both layouts) and removed outside the timing.
    const rows = [];
    const loadBefore = loadAverage();
    for (const files of commitFiles) {
      const rounds = files >= 20_000 ? Math.max(3, Math.ceil(commitRounds / 2)) : commitRounds;
      const command = `for i in $(seq ${files}); do echo $i > f$i; done`;
      const series = { stagedCall: [], previousCall: [], stagedRelease: [], previousRelease: [], stagedCommand: [], previousCommand: [] };
      for (let round = 0; round < rounds; round += 1) {
        for (const design of round % 2 === 0 ? ['staged', 'previous'] : ['previous', 'staged']) {
          const throughTool = join(workspace, `commit-${files}-${design}-${round}`);
          const wrappedHere = `${throughTool}-release`;
          await mkdir(throughTool);
          await mkdir(wrappedHere);
          series[`${design}Call`].push(await milliseconds(() => tools[design].call(`cd ${throughTool} && ${command}`, 600_000)));
          const wrapped = designs[design].wrap({ argv: ['/bin/bash', '-c', command], cwd: wrappedHere }, tools[design].sandboxPolicy);
          let report;
          try {
            series[`${design}Command`].push(await milliseconds(() => plainSpawn(wrapped.argv, wrappedHere, environment)));
          } finally {
            const begin = performance.now();
            report = await wrapped.release();
            series[`${design}Release`].push(performance.now() - begin);
          }
          if (design === 'staged' && report.staged.counts.created !== files) throw new Error(`staged release applied ${JSON.stringify(report.staged.counts)}, not ${files} created files`);
          for (const folder of [throughTool, wrappedHere]) {
            const made = (await readdir(folder)).length;
            if (made !== files) throw new Error(`${design}: ${made} of ${files} files on the host in ${folder}`);
            await rm(folder, { recursive: true });
          }
        }
      }
      const difference = (left, right) => median(series[left].map((time, index) => time - series[right][index]));
      const callCost = difference('stagedCall', 'previousCall');
      const releaseCost = difference('stagedRelease', 'previousRelease');
      const perFile = (value) => {
        const each = value / files;
        const text = Math.abs(each) >= 1 ? `${Math.abs(each).toFixed(2)} ms` : `${Math.abs(each * 1000).toFixed(1)} µs`;
        return `${each < 0 ? '−' : ''}${text}`;
      };
      const signedMs = (value) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)} ms`;
      rows.push([
        String(files),
        String(rounds),
        median(series.stagedCall).toFixed(1),
        median(series.previousCall).toFixed(1),
        signedMs(callCost),
        perFile(callCost),
        median(series.stagedRelease).toFixed(1),
        median(series.previousRelease).toFixed(1),
        perFile(median(series.stagedRelease)),
        signedMs(releaseCost),
        `${median(series.stagedCommand).toFixed(1)} / ${median(series.previousCommand).toFixed(1)}`,
        'yes',
      ]);
    }
    const loadAfter = loadAverage();
    console.log(`commit cost of staged writes: \`for i in $(seq N); do echo $i > f$i; done\` in a new folder of the workspace, through the tool and wrapped here, paired rounds (layout order alternating), medians; load average (1, 5, 15 min) ${loadBefore} before, ${loadAfter} after`);
    printComparisonTable(
      ['files', 'rounds', 'tool call staged ms', 'tool call previous ms', 'staged − previous (paired)', 'per file', 'release() staged ms', 'release() previous ms', 'staged release per file', 'release staged − previous (paired)', 'command alone ms staged / previous', 'all N on the host'],
      rows,
    );
  }

  if (only === undefined || only === 'throughput') {
    // 3. Capture throughput.
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
  }
} finally {
  process.chdir(startedIn);
  if (srtInitialized) await SandboxManager.reset();
  await rm(root, { recursive: true, force: true });
  previousBuild.remove();
}
if (only === undefined) await import('./staged-compare-bench.mjs');
