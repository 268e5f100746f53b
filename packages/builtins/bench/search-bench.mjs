// grep and glob against ripgrep (architecture §5), on a corpus nobody here wrote: every
// package folder under node_modules/.pnpm/*/node_modules/ of this repository, copied with links
// dereferenced into a temp tree without hidden parts (bench/build-search-corpus.mjs). Each round
// runs our warm in-process call and `rg` with equivalent flags back to back (the order alternates),
// and the table gives medians of the rounds and the median of the per-round ratios, with the
// counts of both (they must be identical). Goals: grep <= 2x rg, glob <= 1.5x rg.
// Run after a build: `pnpm --filter @openwork/builtins bench:search`. Needs `rg` on PATH.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { NodeFileSystem } from '@openwork/fs-backend';
import { NodeProcessBackend } from '@openwork/process-backend';
import { UnavailableSandboxBackend } from '@openwork/sandbox';
import { SpillDirectory, ToolSessionContext, finalizeBuiltinToolset, sessionSandboxPolicy } from '../dist/index.js';
import { countLinesAndFiles, globCount, goalCell, grepContentCounts, pairedRounds, prepareSearchCorpus, printComparisonTable, rgLines, timeRg } from '../../../tooling/bench/search-against-rg.mjs';

const rounds = Math.max(7, Number(process.env.SEARCH_BENCH_ROUNDS ?? 7));
const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const grepCases = [
  { name: 'literal', pattern: 'function' },
  { name: 'alternation', pattern: 'import|export' },
  { name: 'case-insensitive class', pattern: '(?i)[a-z]+error' },
  { name: 'no match', pattern: 'zqxjv_nomatch_7731' },
];
const globCase = { name: 'glob **/*.json', pattern: '**/*.json', rgGlob: '*.json' };

const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'ow-search-bench-')));
try {
  const corpus = join(scratch, 'corpus');
  const home = join(scratch, 'home');
  mkdirSync(home);
  await prepareSearchCorpus(repositoryRoot, corpus);

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
  await rgLines(['-c', 'function', '.'], corpus);

  const rgOutput = join(scratch, 'rg-output.txt');
  const rows = [];
  const measure = async (name, runOurs, runRg, counts) => {
    const { ours: ourTime, rg: rgTime, ratio, text } = await pairedRounds(rounds, runOurs, runRg);
    const { ours: ourCount, rg: rgCount } = await counts(text);
    rows.push({ name, rg: rgTime, ours: ourTime, ratio, ourCount, rgCount });
  };

  for (const { name, pattern } of grepCases) {
    await measure(
      `grep ${name} /${pattern}/`,
      () => ours('grep', { pattern }),
      () => timeRg(['-n', '--no-heading', '--color', 'never', '--no-messages', pattern, '.'], corpus, rgOutput),
      async (text) => ({ ours: grepContentCounts(text), rg: countLinesAndFiles(await rgLines(['-c', '--no-messages', pattern, '.'], corpus)) }),
    );
  }
  await measure(
    `${globCase.name} (rg --files -g '${globCase.rgGlob}')`,
    () => ours('glob', { pattern: globCase.pattern }),
    () => timeRg(['--files', '-g', globCase.rgGlob, '.'], corpus, rgOutput),
    async (text) => ({ ours: globCount(text), rg: `${(await rgLines(['--files', '-g', globCase.rgGlob, '.'], corpus)).length} files` }),
  );

  console.log(`\npaired medians of ${rounds} rounds (our warm in-process call vs rg as a process)\n`);
  const header = ['case', 'rg ms', 'ours ms', 'ours/rg', 'goal', 'counts (ours)', 'counts (rg)', 'same'];
  const table = rows.map((row) => {
    const goal = row.name.startsWith('glob') ? 1.5 : 2;
    return [row.name, row.rg.toFixed(0), row.ours.toFixed(0), `${row.ratio.toFixed(2)}x`, goalCell(row.ratio, goal), row.ourCount, row.rgCount, row.ourCount === row.rgCount ? 'yes' : 'NO'];
  });
  printComparisonTable(header, table);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
process.exit();
