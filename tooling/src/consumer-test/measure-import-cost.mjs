// @ts-check
import { spawnSync } from 'node:child_process';

/**
 * @typedef {object} ImportCost
 * @property {string} specifier what was imported
 * @property {number} rounds paired rounds measured (after one warm-up pair)
 * @property {number} bareMs median wall time of `node -e 0`
 * @property {number} importMs median wall time of a cold `await import(specifier)`
 * @property {number} extraMs median of the per-round differences: what the import adds to start-up
 * @property {number} extraCpuMs the same for CPU time (user + system of the whole process), which a
 *   busy machine inflates far less than wall time
 */

/**
 * The cost of a cold `import()` of `specifier` as resolved from `cwd`, against bare `node -e 0`
 * measured in the same run (guide: benchmarks print ratios against a reference, as paired medians).
 * Each round starts both processes back to back, in alternating order, so a busy machine slows both
 * sides of a pair alike; the median difference is the figure to compare across packages.
 * @param {{ specifier: string, cwd: string, rounds?: number }} options
 * @returns {ImportCost}
 */
export function measureImportCost({ specifier, cwd, rounds = 11 }) {
  // Both print their own CPU time at the end; that costs microseconds and is the same on both sides.
  const reportCpu = 'const u = process.cpuUsage(); process.stdout.write(String((u.user + u.system) / 1000));';
  const bare = ['-e', reportCpu];
  const importing = ['--input-type=module', '-e', `await import(${JSON.stringify(specifier)}); ${reportCpu}`];
  timeNode(bare, cwd);
  timeNode(importing, cwd);
  /** @type {number[]} */ const bareTimes = [];
  /** @type {number[]} */ const importTimes = [];
  /** @type {number[]} */ const differences = [];
  /** @type {number[]} */ const cpuDifferences = [];
  for (let round = 0; round < rounds; round++) {
    const first = round % 2 === 0 ? bare : importing;
    const second = first === bare ? importing : bare;
    const firstRun = timeNode(first, cwd);
    const secondRun = timeNode(second, cwd);
    const [bareRun, importRun] = first === bare ? [firstRun, secondRun] : [secondRun, firstRun];
    bareTimes.push(bareRun.wallMs);
    importTimes.push(importRun.wallMs);
    differences.push(importRun.wallMs - bareRun.wallMs);
    cpuDifferences.push(importRun.cpuMs - bareRun.cpuMs);
  }
  return {
    specifier,
    rounds,
    bareMs: median(bareTimes),
    importMs: median(importTimes),
    extraMs: median(differences),
    extraCpuMs: median(cpuDifferences),
  };
}

/**
 * `+123 ms over bare node (bare 110 ms, import 233 ms; CPU +98 ms; medians of 7 paired rounds)`
 * @param {ImportCost} cost
 */
export function formatImportCost(cost) {
  const ms = (/** @type {number} */ value) => `${value >= 0 ? '' : '-'}${Math.abs(Math.round(value))} ms`;
  const signed = (/** @type {number} */ value) => `${value >= 0 ? '+' : ''}${ms(value)}`;
  return `${signed(cost.extraMs)} over bare node (bare ${ms(cost.bareMs)}, import ${ms(cost.importMs)}; CPU ${signed(cost.extraCpuMs)}; medians of ${cost.rounds} paired rounds)`;
}

/**
 * Wall time of one `node` run and the CPU time it reported, in milliseconds; throws when it fails
 * (a broken import is no figure).
 * @param {string[]} args
 * @param {string} cwd
 * @returns {{ wallMs: number, cpuMs: number }}
 */
function timeNode(args, cwd) {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const cpuMs = Number(run.stdout);
  if (run.status !== 0 || !Number.isFinite(cpuMs)) {
    throw new Error(`node ${args.join(' ')} failed in ${cwd} (exit ${run.status}): ${run.stderr.trim()}`);
  }
  return { wallMs, cpuMs };
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? /** @type {number} */ (sorted[middle]) : (/** @type {number} */ (sorted[middle - 1]) + /** @type {number} */ (sorted[middle])) / 2;
}
