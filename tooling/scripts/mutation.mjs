#!/usr/bin/env node
/**
 * `pnpm mutation [filter…] [--concurrency N] [--summary-only] [--report-dir DIR]`: mutation testing of the security and bounding code
 * (style.md "Tests that bite"). Runs Stryker with its vitest runner once per file listed in
 * `tooling/mutation/mutation-targets.mjs`, with per-test coverage and only that file's test
 * files, then prints a table of scores and every surviving mutant. A filter keeps the targets
 * whose package or file path contains it (`pnpm mutation bounded-capture`).
 *
 * Slow by nature (half an hour for the whole list on two cores), so not part of CI. Stryker's
 * sandboxes go to `<package>/.stryker-tmp/`, reports and logs to `reports/mutation/` (both ignored by git).
 * Exits non-zero when a run fails or a file scores below the threshold after its listed
 * equivalent mutants are set aside.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { mutationTargets } from '../mutation/mutation-targets.mjs';

/** A file below this score (equivalent mutants set aside) fails the run. */
const thresholdPercent = 85;

const toolingDirectory = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const rootDirectory = resolve(toolingDirectory, '..');
const require = createRequire(import.meta.url);
const strykerBin = join(dirname(require.resolve('@stryker-mutator/core/package.json')), 'bin', 'stryker.js');
const vitestRunnerPlugin = require.resolve('@stryker-mutator/vitest-runner');

const { values: flags, positionals: filters } = parseArgs({
  allowPositionals: true,
  options: {
    concurrency: { type: 'string', default: process.env['MUTATION_CONCURRENCY'] ?? '2' },
    help: { type: 'boolean', default: false },
    // Re-read the last reports (e.g. after listing an equivalent mutant) without running Stryker.
    'summary-only': { type: 'boolean', default: false },
    // Where reports and logs go (default reports/mutation); another one keeps a "before" set apart.
    'report-dir': { type: 'string', default: join('reports', 'mutation') },
  },
});
if (flags.help) {
  console.log('usage: pnpm mutation [filter…] [--concurrency N] [--summary-only] [--report-dir DIR]\n\ntargets:');
  for (const target of mutationTargets) console.log(`  ${target.package}/${target.file}`);
  process.exit(0);
}
const reportDirectory = resolve(rootDirectory, flags['report-dir']);
const concurrency = Number(flags.concurrency);
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`--concurrency must be a positive integer, got ${flags.concurrency}`);
  process.exit(2);
}

const selected = mutationTargets.filter(
  (target) => filters.length === 0 || filters.some((filter) => `${target.package}/${target.file}`.includes(filter)),
);
if (selected.length === 0) {
  console.error(`no mutation target matches ${filters.join(', ')}; run with --help for the list`);
  process.exit(2);
}

/** `packages/sandbox` + `src/policy/check-access.ts` → `sandbox-check-access` */
function reportName(target) {
  return `${basename(target.package)}-${basename(target.file).replace(/\.[^.]+$/, '')}`;
}

/** Runs the Stryker CLI in `cwd`, its output streamed to `logFile` (follow it with `tail -f`). */
function runStryker(configFile, cwd, logFile) {
  return new Promise((resolvePromise, reject) => {
    const log = createWriteStream(logFile);
    const child = spawn(process.execPath, [strykerBin, 'run', configFile], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on('error', reject);
    child.on('close', (code) => log.end(() => resolvePromise(code ?? 1)));
  });
}

const detectedStatuses = new Set(['Killed', 'Timeout']);
const undetectedStatuses = new Set(['Survived', 'NoCoverage']);

/** Text of `source` between two 1-based `{line, column}` positions. */
function sourceText(source, location) {
  const lines = source.split('\n');
  const offset = ({ line, column }) => lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0) + column - 1;
  return source.slice(offset(location.start), offset(location.end));
}

/** A listed equivalent mutant: same mutator, replacement and original text, on a line reading `line`. */
function isListedEquivalent(target, mutant, original, sourceLine) {
  return (target.equivalent ?? []).some(
    (entry) =>
      entry.mutator === mutant.mutatorName &&
      entry.original === original &&
      entry.replacement === mutant.replacement &&
      entry.line === sourceLine.trim(),
  );
}

/** Scores of one file from Stryker's JSON report (mutation-testing-report-schema). */
async function summarise(target, reportFile) {
  const report = JSON.parse(await readFile(reportFile, 'utf8'));
  const entry = Object.entries(report.files).find(([path]) => path.replaceAll('\\', '/').endsWith(target.file));
  if (entry === undefined) throw new Error(`${reportFile} has no results for ${target.file}`);
  const [, file] = entry;
  const counts = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, other: 0, equivalent: 0 };
  const survivors = [];
  for (const mutant of file.mutants) {
    if (mutant.status in counts) counts[mutant.status] += 1;
    else counts.other += 1;
    if (!undetectedStatuses.has(mutant.status)) continue;
    const original = sourceText(file.source, mutant.location);
    const sourceLine = file.source.split('\n')[mutant.location.start.line - 1] ?? '';
    const equivalent = isListedEquivalent(target, mutant, original, sourceLine);
    if (equivalent) counts.equivalent += 1;
    survivors.push({ mutant, original, equivalent });
  }
  const detected = counts.Killed + counts.Timeout;
  const valid = detected + counts.Survived + counts.NoCoverage;
  const score = valid === 0 ? 100 : (100 * detected) / valid;
  const adjusted = valid - counts.equivalent === 0 ? 100 : (100 * detected) / (valid - counts.equivalent);
  return { target, counts, valid, score, adjusted, survivors };
}

function oneLine(text) {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 70 ? `${flat.slice(0, 67)}...` : flat;
}

function renderTable(results) {
  const header = '| file | mutants | killed | timeout | survived | no coverage | equivalent | score | without equivalent |';
  const rule = '|---|---:|---:|---:|---:|---:|---:|---:|---:|';
  const rows = results.map(({ target, counts, valid, score, adjusted }) =>
    `| ${target.package.replace('packages/', '')}/${target.file.replace('src/', '')} | ${valid} | ${counts.Killed} | ${counts.Timeout} | ${counts.Survived} | ${counts.NoCoverage} | ${counts.equivalent} | ${score.toFixed(1)}% | ${adjusted.toFixed(1)}% |`,
  );
  return [header, rule, ...rows].join('\n');
}

function renderSurvivors(results) {
  const lines = [];
  for (const { target, survivors } of results) {
    for (const { mutant, original, equivalent } of survivors) {
      const where = `${target.package}/${target.file}:${mutant.location.start.line}:${mutant.location.start.column}`;
      const label = equivalent ? 'equivalent' : mutant.status === 'NoCoverage' ? 'no coverage' : 'survived';
      lines.push(`- [${label}] ${where} ${mutant.mutatorName}: \`${oneLine(original)}\` → \`${oneLine(mutant.replacement ?? '')}\``);
    }
  }
  return lines.join('\n');
}

await mkdir(reportDirectory, { recursive: true });
const results = [];
const failures = [];
for (const target of selected) {
  const packageDirectory = join(rootDirectory, target.package);
  const name = reportName(target);
  const reportFile = join(reportDirectory, `${name}.json`);
  if (flags['summary-only']) {
    if (existsSync(reportFile)) results.push(await summarise(target, reportFile));
    else console.warn(`  (no report for ${target.package}/${target.file} yet)`);
    continue;
  }
  const tests = target.tests.filter((test) => existsSync(join(packageDirectory, test)));
  for (const missing of target.tests.filter((test) => !tests.includes(test))) {
    console.warn(`  (${target.package}/${missing} does not exist; skipped)`);
  }
  const logFile = join(reportDirectory, `${name}.log`);
  const configFile = join(reportDirectory, `${name}.stryker.json`);
  await rm(reportFile, { force: true });
  await writeFile(
    configFile,
    JSON.stringify(
      {
        testRunner: 'vitest',
        plugins: [vitestRunnerPlugin],
        vitest: { configFile: 'vitest.config.ts', related: false },
        mutate: [target.file],
        testFiles: tests,
        coverageAnalysis: 'perTest',
        concurrency,
        // Tests start real processes and sandboxes on a shared machine: give them room before a
        // slow run is called a timeout (which would count as killed).
        timeoutMS: 10_000,
        timeoutFactor: 2,
        dryRunTimeoutMinutes: 15,
        reporters: ['json', 'progress-append-only'],
        jsonReporter: { fileName: reportFile },
        // Inside the package (Stryker rewrites the tsconfig `extends` of a sandbox copy for that place).
        tempDirName: '.stryker-tmp',
        cleanTempDir: 'always',
        ignorePatterns: ['dist', 'bench', '.turbo', 'coverage', '*.tsbuildinfo'],
        disableTypeChecks: true,
        allowConsoleColors: false,
      },
      null,
      2,
    ),
  );
  const started = Date.now();
  process.stdout.write(`mutating ${target.package}/${target.file} (${tests.length} test files) … `);
  const exitCode = await runStryker(configFile, packageDirectory, logFile);
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  if (exitCode !== 0 || !existsSync(reportFile)) {
    console.log(`failed after ${minutes} min, see ${relative(rootDirectory, logFile)}`);
    failures.push(target);
    continue;
  }
  const result = await summarise(target, reportFile);
  results.push(result);
  console.log(`${result.score.toFixed(1)}% in ${minutes} min`);
}

const table = renderTable(results);
const survivors = renderSurvivors(results);
const summary = `## Mutation scores\n\n${table}\n\n## Surviving mutants\n\n${survivors === '' ? 'none' : survivors}\n`;
await writeFile(join(reportDirectory, 'summary.md'), summary);
console.log(`\n${summary}\n(written to ${relative(rootDirectory, join(reportDirectory, 'summary.md'))})`);

const below = results.filter((result) => result.adjusted < thresholdPercent);
for (const { target, adjusted } of below) console.error(`below ${thresholdPercent}%: ${target.package}/${target.file} (${adjusted.toFixed(1)}%)`);
for (const target of failures) console.error(`stryker failed: ${target.package}/${target.file}`);
process.exit(below.length > 0 || failures.length > 0 ? 1 : 0);
