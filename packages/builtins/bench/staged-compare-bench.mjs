// The cost of the compare-and-swap of staged writes (architecture §3.11, records 0080–0084),
// paired in one process (each round runs both back to back, in alternating order; medians of the
// per-round values are printed, never one shot):
//   1. Per call: `takeStagedBase` (the marker written and its change time read, then touched until
//      the clock moved past it) — what every staged call now pays before its command starts.
//   2. Per apply, for 1, 1,000, 20,000 (and with COMPARE_FILES=…,100000, 100,000) changed files:
//      `applyStagedWrites` of the same upper layer (files modified on the host) with the compare
//      (`base`) and without it (the host taken as the command saw it) — the difference is the compare.
// Run alone with `ONLY=compare pnpm --filter @openwork/builtins bench:bash`. Knobs: COMPARE_ROUNDS
// (default 5; 20,000 files and more: 3), COMPARE_FILES (default 1,1000,20000), BASE_ROUNDS (default 200).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { applyStagedWrites, createSandboxPolicy, takeStagedBase } from '@openwork/sandbox';
import { loadAverage, printComparisonTable } from '../../../tooling/bench/search-against-rg.mjs';

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const rounds = Number(process.env.COMPARE_ROUNDS ?? 5);
const files = (process.env.COMPARE_FILES ?? '1,1000,20000').split(',').map(Number);
const baseRounds = Number(process.env.BASE_ROUNDS ?? 200);

const root = realpathSync(mkdtempSync(join(tmpdir(), 'ow-compare-bench-')));
try {
  console.log(`\nStaged compare-and-swap — load average ${loadAverage()}`);
  // 1. The base of a call.
  const stamps = [];
  for (let round = 0; round < baseRounds; round += 1) {
    const folder = join(root, `base-${round}`);
    mkdirSync(folder);
    const started = performance.now();
    takeStagedBase(folder);
    stamps.push(performance.now() - started);
  }
  console.log(`takeStagedBase per call: median ${median(stamps).toFixed(3)} ms, max ${Math.max(...stamps).toFixed(3)} ms (${baseRounds} calls)\n`);

  // 2. The apply with and without the compare.
  const workspace = join(root, 'ws');
  const home = join(root, 'home');
  mkdirSync(workspace);
  mkdirSync(home);
  mkdirSync(join(root, 'owh'));
  const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, openworkHome: join(root, 'owh') });
  const rows = [];
  for (const count of files) {
    const each = count >= 20_000 ? Math.min(rounds, 3) : rounds;
    const times = { compare: [], plain: [] };
    for (let round = 0; round < each; round += 1) {
      for (const kind of round % 2 === 0 ? ['compare', 'plain'] : ['plain', 'compare']) {
        // The host holds the files; the upper layer modifies each of them (as a copy-up and write would).
        const target = join(workspace, `${kind}-${round}`);
        const stage = join(root, `stage-${kind}-${round}`);
        const upper = join(stage, 'upper', `${kind}-${round}`);
        mkdirSync(target);
        mkdirSync(upper, { recursive: true });
        for (let index = 0; index < count; index += 1) {
          writeFileSync(join(target, String(index)), 'host\n');
          writeFileSync(join(upper, String(index)), 'command\n');
        }
        const base = takeStagedBase(stage);
        const started = performance.now();
        const report = applyStagedWrites(policy, [{ target: workspace, upper: join(stage, 'upper') }], kind === 'compare' ? { base } : {});
        times[kind].push(performance.now() - started);
        if (report.counts.modified !== count || report.conflicts !== undefined || report.failed !== undefined) throw new Error(`${kind} ${count}: ${JSON.stringify(report.counts)} ${report.failed ?? ''}`);
        rmSync(target, { recursive: true, force: true });
        rmSync(stage, { recursive: true, force: true });
      }
    }
    const compare = median(times.compare);
    const plain = median(times.plain);
    rows.push([count, each, plain.toFixed(1), compare.toFixed(1), `${(compare - plain).toFixed(1)} ms`, `${(((compare - plain) * 1000) / count).toFixed(1)} µs`, `${((compare * 1000) / count).toFixed(1)} µs`, 'yes']);
  }
  printComparisonTable(['files', 'rounds', 'apply without compare (ms)', 'apply with compare (ms)', 'compare cost', 'per file', 'apply per file', 'same result'], rows);
} finally {
  rmSync(root, { recursive: true, force: true });
}
