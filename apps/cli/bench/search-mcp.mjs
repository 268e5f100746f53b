#!/usr/bin/env node
// grep and glob through the surface users run (search performance): a warm `openwork mcp` server, spawned
// as a process and called by the official MCP SDK client over stdio, against `rg` as a process
// (what peers run for every search), on the builtins search corpus: every package folder under
// node_modules/.pnpm/*/node_modules/ of this repository, copied into a temp tree without hidden
// parts (packages/builtins/bench/build-search-corpus.mjs). Each round runs our call and rg back to
// back (the order alternates); the table gives the medians and the median of the per-round ratios,
// the counts of both (they must be identical), the load average before and after, and the rounds.
// Then bash (the last rows): a warm server with the default agent against a plain spawn and
// bare bubblewrap, and the floor of a sandbox made per call (the server's cost of a trivial call,
// and our bwrap command line alone). Run after a build: `pnpm bench:mcp` (ROUNDS=n, at least 7;
// ONLY=bash for the bash rows alone). Needs `rg` and `bwrap` on PATH.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
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
  if (process.env.ONLY !== 'bash') await benchSearch();
  await client?.close();
  client = undefined;
  await benchBash();
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
    const goal = entry.tool === 'glob' ? 1.5 : 2;
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
  let bashClient;
  try {
    bashClient = new Client({ name: 'openwork-bash-bench', version: '1.0.0' }, { capabilities: {} });
    await bashClient.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp', '--workspace', workspace],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(outside, 'home'), OPENWORK_HOME: join(outside, 'home', '.openwork'), TMPDIR: scratch },
        cwd: workspace,
        stderr: 'ignore',
      }),
    );
    const bashTrue = async () => {
      const begin = performance.now();
      const result = await bashClient.callTool({ name: 'bash', arguments: { command: 'true' } });
      const elapsed = performance.now() - begin;
      const text = result.content.map((part) => part.text).join('\n');
      if (result.isError) throw new Error(`bash true: ${text}`);
      return { elapsed, text };
    };
    const references = [
      ['bash `true` vs a plain spawn of `bash -c true`', ['/bin/bash', '-c', 'true']],
      ['bash `true` vs bare `bwrap --ro-bind / / … bash -c true`', ['bwrap', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '/bin/bash', '-c', 'true']],
    ];
    for (let warm = 0; warm < 5; warm += 1) {
      await bashTrue();
      for (const [, argv] of references) await timeSpawn(argv, workspace);
    }
    const loadBefore = loadAverage();
    const bashRounds = Math.max(rounds, 21);
    const bashRows = [];
    const median = (values) => [...values].sort((left, right) => left - right)[values.length >> 1];
    for (const [name, argv] of references) {
      const series = { ours: [], reference: [], ratio: [], difference: [] };
      let text = '';
      for (let round = 0; round < bashRounds; round += 1) {
        let mine;
        let theirs;
        if (round % 2 === 0) {
          ({ elapsed: mine, text } = await bashTrue());
          theirs = await timeSpawn(argv, workspace);
        } else {
          theirs = await timeSpawn(argv, workspace);
          ({ elapsed: mine, text } = await bashTrue());
        }
        series.ours.push(mine);
        series.reference.push(theirs);
        series.ratio.push(mine / theirs);
        series.difference.push(mine - theirs);
      }
      const difference = median(series.difference);
      const goal = name.includes('plain') ? `<= +10 ms ${difference <= 10 ? 'met' : 'MISSED'}` : '-';
      bashRows.push([name, median(series.ours).toFixed(1), median(series.reference).toFixed(1), `${median(series.ratio).toFixed(2)}x`, `+${difference.toFixed(1)} ms`, goal, /exit 0/.test(text) ? 'yes' : 'NO']);
    }
    const floor = await bashFloor(bashClient, bashTrue, workspace, outside, bashRounds, median);
    const loadAfter = loadAverage();
    console.log(`\nbash through openwork mcp (warm, default agent, workspace and home outside every temp root) vs a spawn; paired medians of ${bashRounds} rounds`);
    console.log(`load average (1, 5, 15 min): ${loadBefore} before, ${loadAfter} after\n`);
    printComparisonTable(['case', 'ours ms', 'reference ms', 'ours/reference', 'ours - reference (paired)', 'goal', 'ran (exit 0)'], bashRows);
    console.log(`\nThe floor of a sandbox made for each call, measured in the same run (paired medians of ${bashRounds} rounds):`);
    printComparisonTable(['part', 'ms', 'reference ms', 'part - reference (paired)', 'what it is', 'ran'], floor.rows);
    console.log(`\n  floor over a plain spawn = server floor + layout: +${floor.total.toFixed(1)} ms (goal <= +10 ms); mounts inside: ${floor.mounts}`);
  } finally {
    await bashClient?.close().catch(() => undefined);
    rmSync(outside, { recursive: true, force: true });
  }
}

/**
 * What no per-call sandbox can go below through this server (bash's cost goal, docs/decisions/0031-no-per-session-sandbox.md): the server's
 * own cost of a trivial call (`list` of the workspace: the MCP exchange, the session's policy,
 * the stored record) and our bubblewrap command line by itself — the same layout as the server's
 * (same workspace, home, OpenWork home and temp roots), wrapped here with `@openwork/sandbox`,
 * spawned from this small process and released — each against a plain spawn of `bash -c true`.
 * The mounts each sandbox holds are counted inside it, to show both layouts are the same.
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
  const availability = await backend.selfCheck();
  if (!availability.available) throw new Error(`bubblewrap is unavailable: ${availability.reason}`);
  const plain = ['/bin/bash', '-c', 'true'];
  const layoutOnce = async () => {
    const begin = performance.now();
    const wrapped = backend.wrap({ argv: plain, cwd: workspace }, policy);
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
  const counting = backend.wrap({ argv: ['/bin/bash', '-c', countMounts], cwd: workspace }, policy);
  let hereMounts;
  try {
    hereMounts = await new Promise((resolve, reject) => {
      const child = spawn(counting.argv[0], counting.argv.slice(1), { cwd: workspace, stdio: ['ignore', 'pipe', 'ignore'] });
      let text = '';
      child.stdout.on('data', (chunk) => (text += chunk));
      child.on('error', reject);
      child.on('close', () => resolve(text.trim()));
    });
  } finally {
    await counting.release();
  }
  for (let warm = 0; warm < 3; warm += 1) {
    await listOnce();
    await layoutOnce();
  }
  const series = { list: [], layout: [], plain: [], layoutOverPlain: [], bash: [] };
  for (let round = 0; round < bashRounds; round += 1) {
    const order = round % 2 === 0 ? ['list', 'layout', 'plain', 'bash'] : ['plain', 'bash', 'layout', 'list'];
    const took = {};
    for (const what of order) {
      if (what === 'list') took.list = await listOnce();
      else if (what === 'layout') took.layout = await layoutOnce();
      else if (what === 'bash') took.bash = (await bashTrue()).elapsed;
      else took.plain = await timeSpawn(plain, workspace);
    }
    series.list.push(took.list);
    series.layout.push(took.layout);
    series.plain.push(took.plain);
    series.bash.push(took.bash);
    series.layoutOverPlain.push(took.layout - took.plain);
  }
  const listFloor = median(series.list);
  const layoutFloor = median(series.layoutOverPlain);
  return {
    rows: [
      ['server floor: `list .` through the same openwork mcp', median(series.list).toFixed(1), '0', `+${listFloor.toFixed(1)} ms`, 'MCP exchange, session policy, stored record; no process', 'yes'],
      ['layout: our bwrap command line, wrapped and released here', median(series.layout).toFixed(1), median(series.plain).toFixed(1), `+${layoutFloor.toFixed(1)} ms`, 'wrap, bwrap with our mounts, release; no server', 'yes'],
      ['bash `true` through openwork mcp (same rounds)', median(series.bash).toFixed(1), median(series.plain).toFixed(1), `+${median(series.bash.map((took, round) => took - series.plain[round])).toFixed(1)} ms`, 'for comparison', 'yes'],
    ],
    total: listFloor + layoutFloor,
    mounts: `${serverMounts} (server's sandbox), ${hereMounts} (here)`,
  };
}
