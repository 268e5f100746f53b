// grep and glob against ripgrep (issue 12, architecture §5), on a corpus nobody here wrote: every
// package folder under node_modules/.pnpm/*/node_modules/ of this repository, copied with links
// dereferenced into a temp tree without hidden parts (bench/build-search-corpus.mjs). Each round
// runs our warm in-process call and `rg` with equivalent flags back to back (the order alternates),
// and the table gives medians of the rounds and the median of the per-round ratios, with the
// counts of both (they must be identical). Goals: grep <= 2x rg, glob <= 1.5x rg.
// Run after a build: `pnpm --filter @openwork/builtins bench:search`. Needs `rg` on PATH.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { NodeFileSystem } from '@openwork/fs-backend';
import { NodeProcessBackend } from '@openwork/process-backend';
import { UnavailableSandboxBackend } from '@openwork/sandbox';
import { SpillDirectory, ToolSessionContext, finalizeBuiltinToolset, sessionSandboxPolicy } from '../dist/index.js';
import { buildSearchCorpus } from './build-search-corpus.mjs';

const rounds = Math.max(7, Number(process.env.SEARCH_BENCH_ROUNDS ?? 7));
const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const grepCases = [
  { name: 'literal', pattern: 'function' },
  { name: 'alternation', pattern: 'import|export' },
  { name: 'case-insensitive class', pattern: '(?i)[a-z]+error' },
  { name: 'no match', pattern: 'zqxjv_nomatch_7731' },
];
const globCase = { name: 'glob **/*.json', pattern: '**/*.json', rgGlob: '*.json' };

function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Runs rg with stdout to `outputPath` (like our full list to the spill file); milliseconds. */
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

/** rg's counts: matching lines and files (`rg -c`), or files (`rg --files`). */
function rgCounts(args, cwd) {
  return new Promise((resolve, reject) => {
    let text = '';
    const child = spawn('rg', args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => (text += chunk));
    child.on('error', reject);
    child.on('exit', () => {
      const lines = text.split('\n').filter((line) => line !== '');
      resolve({ files: lines.length, lines: lines.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(':') + 1)), 0) });
    });
  });
}

/** Our counts from a result: the footer's exact totals, or what is shown when nothing was omitted. */
function ourGrepCounts(text) {
  const footer = /\[showing \d+ of (\d+) matching lines? in (\d+) files?/.exec(text);
  if (footer !== null) return { lines: Number(footer[1]), files: Number(footer[2]) };
  if (text.startsWith('No matches')) return { lines: 0, files: 0 };
  const groups = text.split('\n\n');
  return { lines: groups.reduce((sum, group) => sum + group.split('\n').filter((line) => /^\d+:/.test(line)).length, 0), files: groups.length };
}

function ourGlobCount(text) {
  const footer = /\[showing the \d+ most recently modified of (\d+) files?/.exec(text);
  if (footer !== null) return Number(footer[1]);
  return text.startsWith('No files') ? 0 : text.split('\n').length;
}

const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'ow-search-bench-')));
try {
  const corpus = join(scratch, 'corpus');
  const home = join(scratch, 'home');
  mkdirSync(home);
  const started = performance.now();
  const packages = buildSearchCorpus(repositoryRoot, corpus);
  const files = await rgCounts(['--files', '.'], corpus);
  console.log(`corpus: ${packages} package folders, ${files.files} files, built in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const openworkHome = join(home, '.openwork');
  const session = new ToolSessionContext({
    workingDirectory: corpus,
    homeDirectory: home,
    openworkHome,
    sandbox: new UnavailableSandboxBackend('the benchmark needs no kernel sandbox'),
    environment: {},
    filesystem: new NodeFileSystem(),
    processBackend: new NodeProcessBackend(),
    spill: new SpillDirectory({ openworkHome, sessionId: 'bench', homeDirectory: home }),
  });
  const toolset = await finalizeBuiltinToolset(session, { escalationAvailable: false });
  const sandboxPolicy = sessionSandboxPolicy(session, { tempRoots: [] });
  let calls = 0;
  const ours = async (tool, input) => {
    calls += 1;
    const begin = performance.now();
    const result = await toolset.call(tool, input, { callId: `c${calls}`, signal: new AbortController().signal, sandboxPolicy });
    const elapsed = performance.now() - begin;
    if (result.status !== 'succeeded') throw new Error(`${tool} ${JSON.stringify(input)}: ${result.content[0].text}`);
    return { elapsed, text: result.content.map((part) => part.text).join('\n') };
  };
  // Warm: the worker pool, the JIT, the page cache.
  for (const { pattern } of grepCases) await ours('grep', { pattern });
  await ours('glob', { pattern: globCase.pattern });
  await rgCounts(['-c', 'function', '.'], corpus);

  const rgOutput = join(scratch, 'rg-output.txt');
  const rows = [];
  const measure = async (name, runOurs, runRg, counts) => {
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
    const { ours: ourCount, rg: rgCount } = await counts(text);
    rows.push({ name, rg: median(rgTimes), ours: median(ourTimes), ratio: median(ratios), ourCount, rgCount });
  };

  for (const { name, pattern } of grepCases) {
    await measure(
      `grep ${name} /${pattern}/`,
      () => ours('grep', { pattern }),
      () => timeRg(['-n', '--no-heading', '--color', 'never', '--no-messages', pattern, '.'], corpus, rgOutput),
      async (text) => {
        const mine = ourGrepCounts(text);
        const theirs = await rgCounts(['-c', '--no-messages', pattern, '.'], corpus);
        return { ours: `${mine.lines} lines / ${mine.files} files`, rg: `${theirs.lines} lines / ${theirs.files} files` };
      },
    );
  }
  await measure(
    `${globCase.name} (rg --files -g '${globCase.rgGlob}')`,
    () => ours('glob', { pattern: globCase.pattern }),
    () => timeRg(['--files', '-g', globCase.rgGlob, '.'], corpus, rgOutput),
    async (text) => {
      const theirs = await rgCounts(['--files', '-g', globCase.rgGlob, '.'], corpus);
      return { ours: `${ourGlobCount(text)} files`, rg: `${theirs.files} files` };
    },
  );

  console.log(`\npaired medians of ${rounds} rounds (our warm in-process call vs rg as a process)\n`);
  const header = ['case', 'rg ms', 'ours ms', 'ours/rg', 'goal', 'counts (ours)', 'counts (rg)', 'same'];
  const table = rows.map((row) => {
    const goal = row.name.startsWith('glob') ? 1.5 : 2;
    return [row.name, row.rg.toFixed(0), row.ours.toFixed(0), `${row.ratio.toFixed(2)}x`, `<= ${goal}x ${row.ratio <= goal ? 'met' : 'MISSED'}`, row.ourCount, row.rgCount, row.ourCount === row.rgCount ? 'yes' : 'NO'];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...table.map((row) => String(row[column]).length)));
  const format = (row) => `| ${row.map((cell, column) => String(cell).padEnd(widths[column])).join(' | ')} |`;
  console.log(format(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of table) console.log(format(row));
  if (table.some((row) => row[7] !== 'yes')) {
    console.error('\ncounts differ from ripgrep');
    process.exitCode = 1;
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
process.exit();
