#!/usr/bin/env node
// grep and glob through the surface users run (search performance): a warm `openwork mcp` server, spawned
// as a process and called by the official MCP SDK client over stdio, against `rg` as a process
// (what peers run for every search), on the builtins search corpus: every package folder under
// node_modules/.pnpm/*/node_modules/ of this repository, copied into a temp tree without hidden
// parts (packages/builtins/bench/build-search-corpus.mjs). Each round runs our call and rg back to
// back (the order alternates); the table gives the medians and the median of the per-round ratios,
// the counts of both (they must be identical), the load average before and after, and the rounds.
// Then bash (the last rows): a warm server with the default agent against a plain spawn and
// bare bubblewrap, the capture of 256 MiB of output against a plain pipe, and the floor of a sandbox made per call (the server's cost of a trivial call,
// and our bwrap command line alone). The server runs staged writes (checked from inside: its
// overlay mounts); the previous layout (one read-only mount per protected name), which the
// package no longer has, is wrapped here from the last commit that had it (`previousSandbox`)
// among the floor rows. Run after a build: `pnpm bench:mcp` (ROUNDS=n, at least 7; ONLY=bash for
// the bash rows alone, ONLY=capture for the capture rows alone, ONLY=search for the grep and glob rows alone, CAPTURE_MIB=n). Needs `rg`, `bwrap` and the repository's git history.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { previousSandbox } from '../../../tooling/bench/previous-sandbox.mjs';
import { countLinesAndFiles, globCount, goalCell, grepContentCounts, loadAverage, pairedRounds, prepareSearchCorpus, printComparisonTable, rgLines, timeRg } from '../../../tooling/bench/search-against-rg.mjs';

const rounds = Math.max(7, Number(process.env.ROUNDS ?? 7));
const here = dirname(fileURLToPath(import.meta.url));
const repositoryRoot = join(here, '..', '..', '..');
const bin = join(here, '..', 'dist', 'bundle', 'openwork.js');

const rgText = ['--no-heading', '--color', 'never', '--no-messages'];
/** Each case: our tool call, rg's timed arguments, how to count both (must be identical). */
const cases = [
  ...[
    ['/function/', 'function'],
    ['/import|export/', 'import|export'],
    ['/(?i)[a-z]+error/', '(?i)[a-z]+error'],
    ['no match', 'zqxjv_nomatch_7731'],
  ].map(([name, pattern]) => ({
    name: `grep ${name} vs rg -n`,
    tool: 'grep',
    input: { pattern },
    rg: ['-n', ...rgText, pattern, '.'],
    ours: grepContentCounts,
    theirs: ['-c', '--no-messages', pattern, '.'],
    theirsCounts: countLinesAndFiles,
  })),
  {
    name: 'grep files_with_matches /function/ vs rg -l',
    tool: 'grep',
    input: { pattern: 'function', outputMode: 'files_with_matches' },
    rg: ['-l', ...rgText, 'function', '.'],
    ours: filesWithMatchesCount,
    theirs: ['-l', '--no-messages', 'function', '.'],
    theirsCounts: (lines) => `${lines.length} files`,
  },
  {
    name: 'grep count /function/ vs rg -c',
    tool: 'grep',
    input: { pattern: 'function', outputMode: 'count' },
    rg: ['-c', ...rgText, 'function', '.'],
    ours: countModeCounts,
    theirs: ['-c', '--no-messages', 'function', '.'],
    theirsCounts: countLinesAndFiles,
  },
  {
    name: "glob **/*.json vs rg --files -g '*.json'",
    tool: 'glob',
    input: { pattern: '**/*.json' },
    rg: ['--files', '-g', '*.json', '.'],
    ours: globCount,
    theirs: ['--files', '-g', '*.json', '.'],
    theirsCounts: (lines) => `${lines.length} files`,
  },
  {
    name: 'glob **/* vs rg --files',
    tool: 'glob',
    input: { pattern: '**/*' },
    rg: ['--files', '.'],
    ours: globCount,
    theirs: ['--files', '.'],
    theirsCounts: (lines) => `${lines.length} files`,
  },
];

function filesWithMatchesCount(text) {
  const footer = /\[showing \d+ of (\d+) files? with matches/.exec(text);
  if (footer !== null) return `${footer[1]} files`;
  return text.startsWith('No matches') ? '0 files' : `${text.split('\n').length} files`;
}

function countModeCounts(text) {
  const footer = /\[showing \d+ of (\d+) files? with matches, (\d+) matching lines?/.exec(text);
  if (footer !== null) return `${footer[2]} lines / ${footer[1]} files`;
  const lines = text.split('\n').filter((line) => line !== '');
  return countLinesAndFiles(lines);
}

const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'ow-mcp-bench-')));
let client;
try {
  if (process.env.ONLY !== 'bash' && process.env.ONLY !== 'capture') await benchSearch();
  await client?.close();
  client = undefined;
  if (process.env.ONLY !== 'search') await benchBash();
} finally {
  await client?.close().catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
}

/** The grep and glob rows against rg (the table above). */
async function benchSearch() {
  const corpus = join(scratch, 'corpus');
  const home = join(scratch, 'home');
  mkdirSync(home);
  await prepareSearchCorpus(repositoryRoot, corpus);

  client = new Client({ name: 'openwork-search-bench', version: '1.0.0' }, { capabilities: {} });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--workspace', corpus, '--agent', 'explorer'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, OPENWORK_HOME: join(home, '.openwork'), TMPDIR: scratch },
      cwd: scratch,
      stderr: 'ignore',
    }),
  );
  const ours = async (tool, input) => {
    const begin = performance.now();
    const result = await client.callTool({ name: tool, arguments: input });
    const elapsed = performance.now() - begin;
    const text = result.content.map((part) => part.text).join('\n');
    if (result.isError) throw new Error(`${tool} ${JSON.stringify(input)}: ${text}`);
    return { elapsed, text };
  };
  // Warm: the server's worker pool and JIT, the page cache, rg's binary.
  for (const entry of cases) {
    await ours(entry.tool, entry.input);
    await rgLines(entry.rg, corpus);
  }

  const loadBefore = loadAverage();
  const rgOutput = join(scratch, 'rg-output.txt');
  const rows = [];
  for (const entry of cases) {
    const { ours: ourTime, rg: rgTime, ratio, text } = await pairedRounds(rounds, () => ours(entry.tool, entry.input), () => timeRg(entry.rg, corpus, rgOutput));
    const ourCount = entry.ours(text);
    const rgCount = entry.theirsCounts(await rgLines(entry.theirs, corpus));
    const goal = entry.tool === 'glob' ? 1.15 : 1.25;
    rows.push([entry.name, ourTime.toFixed(0), rgTime.toFixed(0), `${ratio.toFixed(2)}x`, goalCell(ratio, goal), ourCount, rgCount, ourCount === rgCount ? 'yes' : 'NO']);
  }
  const loadAfter = loadAverage();

  console.log(`\nopenwork mcp (warm, MCP SDK client over stdio) vs rg as a process; paired medians of ${rounds} rounds`);
  console.log(`load average (1, 5, 15 min): ${loadBefore} before, ${loadAfter} after; ${(await import('node:os')).availableParallelism()} cores\n`);
  const header = ['case', 'ours ms', 'rg ms', 'ours/rg', 'goal', 'counts (ours)', 'counts (rg)', 'same'];
  printComparisonTable(header, rows);
}

/** A plain spawn of `argv` (own process group, both pipes read to the end); milliseconds. */
function timeSpawn(argv, cwd) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(argv[0], argv.slice(1), { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${argv.join(' ')} exited with ${code}`))));
  });
}

/**
 * The bash rows: `bash true` through a warm `openwork mcp` (the default agent) against a
 * plain spawn of `bash -c true` and against bare bubblewrap. The workspace and home lie outside
 * every temp root, as a user's do (a home inside `/tmp` is writable there, and its ~40 missing
 * start-up files would each get a mount point): in the repository's `node_modules/.cache`.
 */
async function benchBash() {
  mkdirSync(join(repositoryRoot, 'node_modules', '.cache'), { recursive: true });
  const outside = realpathSync(mkdtempSync(join(repositoryRoot, 'node_modules', '.cache', 'ow-bash-bench-')));
  mkdirSync(join(outside, 'ws', '.git'), { recursive: true });
  mkdirSync(join(outside, 'home'));
  const workspace = join(outside, 'ws');
  const clients = {};
  try {
    /** A warm server. */
    const connect = async () => {
      const client = new Client({ name: 'openwork-bash-bench', version: '1.0.0' }, { capabilities: {} });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [bin, 'mcp', '--workspace', workspace],
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(outside, 'home'), OPENWORK_HOME: join(outside, 'home', '.openwork'), TMPDIR: scratch },
          cwd: workspace,
          stderr: 'ignore',
        }),
      );
      return client;
    };
    clients.staged = await connect();
    const bashThrough = (client) => async () => {
      const begin = performance.now();
      const result = await client.callTool({ name: 'bash', arguments: { command: 'true' } });
      const elapsed = performance.now() - begin;
      const text = result.content.map((part) => part.text).join('\n');
      if (result.isError) throw new Error(`bash true: ${text}`);
      return { elapsed, text };
    };
    const bashTrue = bashThrough(clients.staged);
    // Which layout each server runs, seen from inside: staged writes mount an overlay per writable folder.
    const overlays = {};
    for (const [layout, client] of Object.entries(clients)) {
      const result = await client.callTool({ name: 'bash', arguments: { command: "grep -c ' - overlay ' /proc/self/mountinfo || true" } });
      overlays[layout] = Number(result.content.map((part) => part.text).join('\n').trim().split('\n')[0]);
    }
    if (!(overlays.staged > 0)) throw new Error(`the server does not stage writes: overlay mounts ${JSON.stringify(overlays)}`);
    const spawnOf = (argv) => async () => ({ elapsed: await timeSpawn(argv, workspace), text: 'exit 0' });
    const plainSpawn = spawnOf(['/bin/bash', '-c', 'true']);
    const bareBwrap = spawnOf(['bwrap', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '/bin/bash', '-c', 'true']);
    // All run in every round (the order reversing each round), so that every row below is paired
    // within the same rounds: on a loaded machine, rows taken in separate rounds disagree.
    const competitors = { staged: bashTrue, plain: plainSpawn, bare: bareBwrap };
    // Each row: ours, the reference, whether the +10 ms goal applies.
    const comparisons = [
      ['bash `true`, staged writes (default) vs a plain spawn of `bash -c true`', 'staged', 'plain', true],
      ['bash `true`, staged writes (default) vs bare `bwrap --ro-bind / / … bash -c true`', 'staged', 'bare', false],
    ];
    const median = (values) => [...values].sort((left, right) => left - right)[values.length >> 1];
    if (process.env.ONLY === 'capture') {
      const capture = await bashCapture(clients.staged, workspace, rounds, median);
      console.log(`\nbash output capture through openwork mcp: ${capture.mib} MiB of output, paired medians of ${capture.rounds} rounds (load ${capture.loadBefore} before, ${capture.loadAfter} after)`);
      printComparisonTable(['case', 'ours ms', 'reference ms', 'ours/reference', 'goal', 'ours: server CPU ms', 'reference: reader CPU ms', 'all bytes counted'], capture.rows);
      return;
    }
    for (let warm = 0; warm < 5; warm += 1) {
      for (const run of Object.values(competitors)) await run();
    }
    const loadBefore = loadAverage();
    const bashRounds = Math.max(rounds, 21);
    const bashRows = [];
    const series = Object.fromEntries(Object.keys(competitors).map((name) => [name, []]));
    const texts = {};
    for (let round = 0; round < bashRounds; round += 1) {
      const order = Object.keys(competitors);
      if (round % 2 === 1) order.reverse();
      for (const name of order) {
        const { elapsed, text } = await competitors[name]();
        series[name].push(elapsed);
        texts[name] = text;
      }
    }
    for (const [name, ours, reference, goalApplies] of comparisons) {
      const difference = median(series[ours].map((time, round) => time - series[reference][round]));
      const ratio = median(series[ours].map((time, round) => time / series[reference][round]));
      const goal = goalApplies ? `<= +10 ms ${difference <= 10 ? 'met' : 'MISSED'}` : '-';
      const signed = `${difference >= 0 ? '+' : '−'}${Math.abs(difference).toFixed(1)} ms`;
      bashRows.push([name, median(series[ours]).toFixed(1), median(series[reference]).toFixed(1), `${ratio.toFixed(2)}x`, signed, goal, /exit 0/.test(texts[ours]) ? 'yes' : 'NO']);
    }
    const capture = await bashCapture(clients.staged, workspace, rounds, median);
    const floor = await bashFloor(clients.staged, bashTrue, workspace, outside, bashRounds, median);
    const loadAfter = loadAverage();
    console.log(`\nbash through openwork mcp (warm, default agent, workspace and home outside every temp root) vs a spawn; paired medians of ${bashRounds} rounds`);
    console.log(`layout, checked from inside: staged writes, ${overlays.staged} overlay mounts`);
    console.log(`load average (1, 5, 15 min): ${loadBefore} before, ${loadAfter} after\n`);
    printComparisonTable(['case', 'ours ms', 'reference ms', 'ours/reference', 'ours - reference (paired)', 'goal', 'ran (exit 0)'], bashRows);
    console.log(`\nbash output capture through the same server: ${capture.mib} MiB of output, paired medians of ${capture.rounds} rounds (load ${capture.loadBefore} before, ${capture.loadAfter} after)`);
    printComparisonTable(['case', 'ours ms', 'reference ms', 'ours/reference', 'goal', 'ours: server CPU ms', 'reference: reader CPU ms', 'all bytes counted'], capture.rows);
    console.log(`\nThe floor of a sandbox made for each call, measured in the same run (paired medians of ${bashRounds} rounds):`);
    printComparisonTable(['part', 'ms', 'reference ms', 'part - reference (paired)', 'what it is', 'ran'], floor.rows);
    console.log(`\n  floor over a plain spawn = server floor + layout (staged writes): +${floor.total.toFixed(1)} ms (goal <= +10 ms); mounts inside: ${floor.mounts}`);
  } finally {
    for (const client of Object.values(clients)) await client.close().catch(() => undefined);
    rmSync(outside, { recursive: true, force: true });
  }
}

/** User + system CPU of a process (all its threads), in ms, from /proc (10 ms ticks). */
function processCpu(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Capture throughput through the server (architecture §5: ≤ 1.5× a plain pipe): `head -c N
 * /dev/zero` through the bash tool (bounded capture, the 64 MiB spill file, the sandbox) against
 * the plain pipe `head -c N /dev/zero | cat > /dev/null` (the goal's reference) and against Node
 * reading the same `head` from a spawn in its own session (this process: what any Node capture
 * starts from). Paired rounds, order alternating; CAPTURE_MIB (default 256).
 */
async function bashCapture(client, workspace, captureRounds, median) {
  const mib = Number(process.env.CAPTURE_MIB ?? 256);
  const bytes = mib * 1024 * 1024;
  const serverPid = client.transport?.pid;
  const serverCpu = [];
  const readerCpu = [];
  let reported = '';
  const ours = async () => {
    const cpuBefore = serverPid === undefined ? 0 : processCpu(serverPid);
    const begin = performance.now();
    const result = await client.callTool({ name: 'bash', arguments: { command: `head -c ${bytes} /dev/zero` } });
    const elapsed = performance.now() - begin;
    if (serverPid !== undefined) serverCpu.push(processCpu(serverPid) - cpuBefore);
    const text = result.content.map((part) => part.text).join('\n');
    if (result.isError) throw new Error(`bash head: ${text}`);
    const omitted = Number(/\.\.\. \((\d+) bytes omitted/.exec(text)?.[1] ?? NaN);
    // Every byte counted: the omitted ones and the 16 KiB shown (head and tail).
    reported = omitted + 16 * 1024 === bytes ? 'yes' : 'NO';
    return elapsed;
  };
  const pipe = () => timeSpawn(['/bin/bash', '-c', `head -c ${bytes} /dev/zero | cat > /dev/null`], workspace);
  const nodeReader = async () => {
    const before = process.cpuUsage();
    const elapsed = await timeSpawn(['head', '-c', String(bytes), '/dev/zero'], workspace);
    const used = process.cpuUsage(before);
    readerCpu.push((used.user + used.system) / 1000);
    return elapsed;
  };
  await ours();
  await pipe();
  await nodeReader();
  serverCpu.length = 0;
  readerCpu.length = 0;
  const loadBefore = loadAverage();
  const series = { ours: [], pipe: [], nodeReader: [] };
  const runners = { ours, pipe, nodeReader };
  for (let round = 0; round < captureRounds; round += 1) {
    const order = round % 2 === 0 ? ['ours', 'pipe', 'nodeReader'] : ['nodeReader', 'pipe', 'ours'];
    for (const name of order) series[name].push(await runners[name]());
  }
  const loadAfter = loadAverage();
  const ratio = (reference) => median(series.ours.map((time, round) => time / series[reference][round]));
  const cpu = serverCpu.length === 0 ? '-' : median(serverCpu).toFixed(0);
  return {
    mib,
    rounds: captureRounds,
    loadBefore,
    loadAfter,
    rows: [
      [`bash \`head -c ${mib} MiB /dev/zero\` vs a plain pipe (\`head | cat > /dev/null\`)`, median(series.ours).toFixed(0), median(series.pipe).toFixed(0), `${ratio('pipe').toFixed(2)}x`, goalCell(ratio('pipe'), 1.5), cpu, '-', reported],
      [`bash \`head -c ${mib} MiB /dev/zero\` vs Node reading head's output (own session)`, median(series.ours).toFixed(0), median(series.nodeReader).toFixed(0), `${ratio('nodeReader').toFixed(2)}x`, '-', cpu, median(readerCpu).toFixed(0), reported],
    ],
  };
}

/**
 * What no per-call sandbox can go below through this server (bash's cost goal, docs/decisions/0031-no-per-session-sandbox.md): the server's
 * own cost of a trivial call (`list` of the workspace: the MCP exchange, the session's policy,
 * the stored record) and our bubblewrap command line by itself — the same layout as the server's
 * (same workspace, home, OpenWork home and temp roots), wrapped here with `@openwork/sandbox`,
 * spawned from this small process and released — each against a plain spawn of `bash -c true`.
 * The mounts each sandbox holds are counted inside it, to show both layouts are the same. The
 * previous layout is wrapped here too, from the last commit that had it (`previousSandbox`).
 */
async function bashFloor(bashClient, bashTrue, workspace, outside, bashRounds, median) {
  const sandbox = await import('../../../packages/sandbox/dist/index.js');
  const home = join(outside, 'home');
  const policy = sandbox.createSandboxPolicy({
    workspaceRoots: [workspace],
    homeDirectory: home,
    openworkHome: join(home, '.openwork'),
    tempRoots: [scratch, '/tmp'],
  });
  const backend = new sandbox.BubblewrapBackend();
  const previousBuild = await previousSandbox();
  const previousPackage = await import(previousBuild.url);
  const previous = new previousPackage.BubblewrapBackend();
  const previousPolicy = previousPackage.createSandboxPolicy({ workspaceRoots: [workspace], homeDirectory: home, openworkHome: join(home, '.openwork'), tempRoots: [scratch, '/tmp'] });
  const availability = await backend.selfCheck();
  if (!availability.available) throw new Error(`bubblewrap is unavailable: ${availability.reason}`);
  const plain = ['/bin/bash', '-c', 'true'];
  const layoutOnce = async (layout = backend) => {
    const begin = performance.now();
    const wrapped = layout.wrap({ argv: plain, cwd: workspace }, layout === previous ? previousPolicy : policy);
    try {
      await timeSpawn(wrapped.argv, workspace);
    } finally {
      await wrapped.release();
    }
    return performance.now() - begin;
  };
  const listOnce = async () => {
    const begin = performance.now();
    const result = await bashClient.callTool({ name: 'list', arguments: { path: '.' } });
    if (result.isError) throw new Error(`list: ${result.content.map((part) => part.text).join('\n')}`);
    return performance.now() - begin;
  };
  const countMounts = 'wc -l < /proc/self/mountinfo';
  const serverMounts = (await bashClient.callTool({ name: 'bash', arguments: { command: countMounts } })).content.map((part) => part.text).join('\n').trim().split('\n')[0];
  const mountsHere = async (layout) => {
    const counting = layout.wrap({ argv: ['/bin/bash', '-c', countMounts], cwd: workspace }, layout === previous ? previousPolicy : policy);
    try {
      return await new Promise((resolve, reject) => {
        const child = spawn(counting.argv[0], counting.argv.slice(1), { cwd: workspace, stdio: ['ignore', 'pipe', 'ignore'] });
        let text = '';
        child.stdout.on('data', (chunk) => (text += chunk));
        child.on('error', reject);
        child.on('close', () => resolve(text.trim()));
      });
    } finally {
      await counting.release();
    }
  };
  const hereMounts = await mountsHere(backend);
  const previousMounts = await mountsHere(previous);
  for (let warm = 0; warm < 3; warm += 1) {
    await listOnce();
    await layoutOnce();
    await layoutOnce(previous);
  }
  const series = { list: [], layout: [], previousLayout: [], plain: [], layoutOverPlain: [], previousOverPlain: [], bash: [] };
  for (let round = 0; round < bashRounds; round += 1) {
    const order = round % 2 === 0 ? ['list', 'layout', 'previousLayout', 'plain', 'bash'] : ['plain', 'bash', 'previousLayout', 'layout', 'list'];
    const took = {};
    for (const what of order) {
      if (what === 'list') took.list = await listOnce();
      else if (what === 'layout') took.layout = await layoutOnce();
      else if (what === 'previousLayout') took.previousLayout = await layoutOnce(previous);
      else if (what === 'bash') took.bash = (await bashTrue()).elapsed;
      else took.plain = await timeSpawn(plain, workspace);
    }
    series.list.push(took.list);
    series.layout.push(took.layout);
    series.previousLayout.push(took.previousLayout);
    series.previousOverPlain.push(took.previousLayout - took.plain);
    series.plain.push(took.plain);
    series.bash.push(took.bash);
    series.layoutOverPlain.push(took.layout - took.plain);
  }
  const listFloor = median(series.list);
  const layoutFloor = median(series.layoutOverPlain);
  previousBuild.remove();
  return {
    rows: [
      ['server floor: `list .` through the same openwork mcp', median(series.list).toFixed(1), '0', `+${listFloor.toFixed(1)} ms`, 'MCP exchange, session policy, stored record; no process', 'yes'],
      ['layout: our bwrap command line, staged writes (default), wrapped and released here', median(series.layout).toFixed(1), median(series.plain).toFixed(1), `+${layoutFloor.toFixed(1)} ms`, 'wrap, bwrap with our mounts, release; no server', 'yes'],
      ['layout: the previous one (its last commit), wrapped and released here', median(series.previousLayout).toFixed(1), median(series.plain).toFixed(1), `+${median(series.previousOverPlain).toFixed(1)} ms`, 'wrap, bwrap with one mount per protected name, release', 'yes'],
      ['bash `true` through openwork mcp (same rounds)', median(series.bash).toFixed(1), median(series.plain).toFixed(1), `+${median(series.bash.map((took, round) => took - series.plain[round])).toFixed(1)} ms`, 'for comparison', 'yes'],
    ],
    total: listFloor + layoutFloor,
    mounts: `${serverMounts} (server's sandbox), ${hereMounts} (here); previous layout ${previousMounts} (here)`,
  };
}
