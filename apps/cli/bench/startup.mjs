#!/usr/bin/env node
// Start-up benchmark (issue 16): `openwork --version` and `openwork call read` on a small file,
// each paired with a bare `node -e 0` in the same round; prints the medians and their ratios.
// Run after `pnpm build`: `pnpm --filter openwork bench` (ROUNDS=n to change the 9 rounds).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../dist/bin/openwork.js', import.meta.url));
const rounds = Number(process.env.ROUNDS ?? 9);
const root = realpathSync(mkdtempSync(join(tmpdir(), 'openwork-bench-')));
const workspace = join(root, 'workspace');
mkdirSync(workspace);
writeFileSync(join(workspace, 'small.txt'), 'one\ntwo\nthree\n');
const env = { PATH: process.env.PATH, HOME: join(root, 'home'), OPENWORK_HOME: join(root, 'home', '.openwork') };

function time(argv) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, argv, { env, cwd: workspace, stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const cases = {
  'openwork --version': [bin, '--version'],
  'openwork call read small.txt': [bin, 'call', 'read', '{"path":"small.txt"}', '--workspace', workspace],
};
time(cases['openwork call read small.txt']); // creates the store once, outside the rounds
for (const [name, argv] of Object.entries(cases)) {
  const own = [];
  const bare = [];
  for (let round = 0; round < rounds; round += 1) {
    bare.push(time(['-e', '0']));
    own.push(time(argv));
  }
  const ownMedian = median(own);
  const bareMedian = median(bare);
  console.log(`${name}: median ${ownMedian.toFixed(0)} ms vs node -e 0 ${bareMedian.toFixed(0)} ms = ${(ownMedian / bareMedian).toFixed(2)}x (${rounds} paired rounds)`);
}
rmSync(root, { recursive: true, force: true });
