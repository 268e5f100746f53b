// What the two search benchmarks share (the search benchmark and `pnpm bench:mcp`): packages/builtins/bench/search-bench.mjs
// calls grep and glob in process, apps/cli/bench/search-mcp.mjs through a warm `openwork mcp`; both
// measure against `rg` as a process on the same corpus, in paired rounds (our call and rg back to
// back, the order alternating), and print medians, the median of the per-round ratios and the
// counts of both, which must be identical.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { buildSearchCorpus } from '../../packages/builtins/bench/build-search-corpus.mjs';

function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The load average (1, 5, 15 min), as printed next to the table. */
export function loadAverage() {
  return loadavg().map((value) => value.toFixed(2)).join(' ');
}

/** Runs rg with stdout to `outputPath` (like our full list to the spill file); milliseconds. */
export function timeRg(args, cwd, outputPath) {
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
export function rgLines(args, cwd) {
  return new Promise((resolve, reject) => {
    let text = '';
    const child = spawn('rg', args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => (text += chunk));
    child.on('error', reject);
    child.on('exit', () => resolve(text.split('\n').filter((line) => line !== '')));
  });
}

/** Builds the search corpus (build-search-corpus.mjs) into `corpus` and prints its size. */
export async function prepareSearchCorpus(repositoryRoot, corpus) {
  const started = performance.now();
  const packages = buildSearchCorpus(repositoryRoot, corpus);
  const files = await rgLines(['--files', '.'], corpus);
  console.log(`corpus: ${packages} package folders, ${files.length} files, built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * `rounds` paired rounds of `runOurs` (resolves to `{ elapsed, text }`) and `runRg` (resolves to
 * milliseconds), back to back in alternating order. Returns the medians of both, the median of
 * the per-round ratios and the text of our last call.
 */
export async function pairedRounds(rounds, runOurs, runRg) {
  const ourTimes = [];
  const rgTimes = [];
  const ratios = [];
  let text = '';
  for (let round = 0; round < rounds; round += 1) {
    let mine;
    let theirs;
    if (round % 2 === 0) {
      ({ elapsed: mine, text } = await runOurs());
      theirs = await runRg();
    } else {
      theirs = await runRg();
      ({ elapsed: mine, text } = await runOurs());
    }
    ourTimes.push(mine);
    rgTimes.push(theirs);
    ratios.push(mine / theirs);
  }
  return { ours: median(ourTimes), rg: median(rgTimes), ratio: median(ratios), text };
}

/** The goal column: `<= 2x met`, or MISSED. */
export function goalCell(ratio, goal) {
  return `<= ${goal}x ${ratio <= goal ? 'met' : 'MISSED'}`;
}

/** rg's `-c` lines (`path:count`) as `N lines / M files`. */
export function countLinesAndFiles(lines) {
  const total = lines.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(':') + 1)), 0);
  return `${total} lines / ${lines.length} files`;
}

/** Our grep (content mode) counts: the footer's exact totals, or what is shown when nothing was omitted. */
export function grepContentCounts(text) {
  const footer = /\[showing \d+ of (\d+) matching lines? in (\d+) files?/.exec(text);
  if (footer !== null) return `${footer[1]} lines / ${footer[2]} files`;
  if (text.startsWith('No matches')) return '0 lines / 0 files';
  const groups = text.split('\n\n');
  const lines = groups.reduce((sum, group) => sum + group.split('\n').filter((line) => /^\d+:/.test(line)).length, 0);
  return `${lines} lines / ${groups.length} files`;
}

/** Our glob's count: the footer's total, or the files shown. */
export function globCount(text) {
  const footer = /\[showing the \d+ most recently modified of (\d+) files?/.exec(text);
  if (footer !== null) return `${footer[1]} files`;
  return text.startsWith('No files') ? '0 files' : `${text.split('\n').length} files`;
}

/** Prints the table; its last column says whether the counts are the same, and a `NO` fails the run. */
export function printComparisonTable(header, rows) {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => String(row[column]).length)));
  const format = (row) => `| ${row.map((cell, column) => String(cell).padEnd(widths[column])).join(' | ')} |`;
  console.log(format(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of rows) console.log(format(row));
  if (rows.some((row) => row.at(-1) !== 'yes')) {
    console.error('\ncounts differ from ripgrep');
    process.exitCode = 1;
  }
}
