#!/usr/bin/env node
// grep and glob through the surface users run (issue 25): a warm `openwork mcp` server, spawned
// as a process and called by the official MCP SDK client over stdio, against `rg` as a process
// (what peers run for every search), on the builtins search corpus: every package folder under
// node_modules/.pnpm/*/node_modules/ of this repository, copied into a temp tree without hidden
// parts (packages/builtins/bench/build-search-corpus.mjs). Each round runs our call and rg back to
// back (the order alternates); the table gives the medians and the median of the per-round ratios,
// the counts of both (they must be identical), the load average before and after, and the rounds.
// Run after a build: `pnpm bench:mcp` (ROUNDS=n, at least 7). Needs `rg` on PATH.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, realpathSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { buildSearchCorpus } from '../../../packages/builtins/bench/build-search-corpus.mjs';

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

function countLinesAndFiles(lines) {
  const total = lines.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(':') + 1)), 0);
  return `${total} lines / ${lines.length} files`;
}

function grepContentCounts(text) {
  const footer = /\[showing \d+ of (\d+) matching lines? in (\d+) files?/.exec(text);
  if (footer !== null) return `${footer[1]} lines / ${footer[2]} files`;
  if (text.startsWith('No matches')) return '0 lines / 0 files';
  const groups = text.split('\n\n');
  const lines = groups.reduce((sum, group) => sum + group.split('\n').filter((line) => /^\d+:/.test(line)).length, 0);
  return `${lines} lines / ${groups.length} files`;
}

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

function globCount(text) {
  const footer = /\[showing the \d+ most recently modified of (\d+) files?/.exec(text);
  if (footer !== null) return `${footer[1]} files`;
  return text.startsWith('No files') ? '0 files' : `${text.split('\n').length} files`;
}

function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** rg with stdout to a file (as our full list goes to the spill file); milliseconds. */
function timeRg(args, cwd, outputPath) {
  return new Promise((resolve, reject) => {
    const output = openSync(outputPath, 'w');
    const started = performance.now();
    const child = spawn('rg', args, { cwd, stdio: ['ignore', output, 'ignore'] });
    child.on('error', reject);
    child.on('exit', (code) => {
      const elapsed = performance.now() - started;
      closeSync(output);
      if (code !== 0 && code !== 1) reject(new Error(`rg ${args.join(' ')} exited with ${code}`));
      else resolve(elapsed);
    });
  });
}

/** rg's output lines, for the counts. */
function rgLines(args, cwd) {
  return new Promise((resolve, reject) => {
    let text = '';
    const child = spawn('rg', args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => (text += chunk));
    child.on('error', reject);
    child.on('exit', () => resolve(text.split('\n').filter((line) => line !== '')));
  });
}

const load = () => loadavg().map((value) => value.toFixed(2)).join(' ');
const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'ow-mcp-bench-')));
let client;
try {
  const corpus = join(scratch, 'corpus');
  const home = join(scratch, 'home');
  mkdirSync(home);
  const started = performance.now();
  const packages = buildSearchCorpus(repositoryRoot, corpus);
  const files = await rgLines(['--files', '.'], corpus);
  console.log(`corpus: ${packages} package folders, ${files.length} files, built in ${((performance.now() - started) / 1000).toFixed(1)} s`);

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

  const loadBefore = load();
  const rgOutput = join(scratch, 'rg-output.txt');
  const rows = [];
  for (const entry of cases) {
    const ourTimes = [];
    const rgTimes = [];
    const ratios = [];
    let text = '';
    for (let round = 0; round < rounds; round += 1) {
      let mine;
      let theirs;
      if (round % 2 === 0) {
        ({ elapsed: mine, text } = await ours(entry.tool, entry.input));
        theirs = await timeRg(entry.rg, corpus, rgOutput);
      } else {
        theirs = await timeRg(entry.rg, corpus, rgOutput);
        ({ elapsed: mine, text } = await ours(entry.tool, entry.input));
      }
      ourTimes.push(mine);
      rgTimes.push(theirs);
      ratios.push(mine / theirs);
    }
    const ourCount = entry.ours(text);
    const rgCount = entry.theirsCounts(await rgLines(entry.theirs, corpus));
    const goal = entry.tool === 'glob' ? 1.5 : 2;
    const ratio = median(ratios);
    rows.push([entry.name, median(ourTimes).toFixed(0), median(rgTimes).toFixed(0), `${ratio.toFixed(2)}x`, `<= ${goal}x ${ratio <= goal ? 'met' : 'MISSED'}`, ourCount, rgCount, ourCount === rgCount ? 'yes' : 'NO']);
  }
  const loadAfter = load();

  console.log(`\nopenwork mcp (warm, MCP SDK client over stdio) vs rg as a process; paired medians of ${rounds} rounds`);
  console.log(`load average (1, 5, 15 min): ${loadBefore} before, ${loadAfter} after; ${(await import('node:os')).availableParallelism()} cores\n`);
  const header = ['case', 'ours ms', 'rg ms', 'ours/rg', 'goal', 'counts (ours)', 'counts (rg)', 'same'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => String(row[column]).length)));
  const format = (row) => `| ${row.map((cell, column) => String(cell).padEnd(widths[column])).join(' | ')} |`;
  console.log(format(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of rows) console.log(format(row));
  if (rows.some((row) => row[7] !== 'yes')) {
    console.error('\ncounts differ from ripgrep');
    process.exitCode = 1;
  }
} finally {
  await client?.close().catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
}
