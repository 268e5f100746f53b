// @ts-check
import { spawnSync } from 'node:child_process';

/**
 * @typedef {object} ImportCost
 * @property {string} specifier what was imported
 * @property {number} rounds paired rounds measured (after one warm-up pair)
 * @property {number} bareMs median wall time of `node -e 0`
 * @property {number} importMs median wall time of a cold `await import(specifier)`
 * @property {number} extraMs median of the per-round differences: what the import adds to start-up
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
  const bare = ['-e', '0'];
  const importing = ['--input-type=module', '-e', `await import(${JSON.stringify(specifier)});`];
  timeNode(bare, cwd);
  timeNode(importing, cwd);
  /** @type {number[]} */ const bareTimes = [];
  /** @type {number[]} */ const importTimes = [];
  /** @type {number[]} */ const differences = [];
  for (let round = 0; round < rounds; round++) {
    const first = round % 2 === 0 ? bare : importing;
    const second = first === bare ? importing : bare;
    const firstMs = timeNode(first, cwd);
    const secondMs = timeNode(second, cwd);
    const [bareMs, importMs] = first === bare ? [firstMs, secondMs] : [secondMs, firstMs];
    bareTimes.push(bareMs);
    importTimes.push(importMs);
    differences.push(importMs - bareMs);
  }
  return {
    specifier,
    rounds,
    bareMs: median(bareTimes),
    importMs: median(importTimes),
    extraMs: median(differences),
  };
}

/**
 * Wall time of one `node` run, in milliseconds; throws when it fails (a broken import is no figure).
 * @param {string[]} args
 * @param {string} cwd
 */
function timeNode(args, cwd) {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0) {
    throw new Error(`node ${args.join(' ')} failed in ${cwd} (exit ${run.status}): ${run.stderr.trim()}`);
  }
  return elapsed;
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? /** @type {number} */ (sorted[middle]) : (/** @type {number} */ (sorted[middle - 1]) + /** @type {number} */ (sorted[middle])) / 2;
}
