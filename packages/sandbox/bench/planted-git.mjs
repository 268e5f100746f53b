// A call on a workspace whose `.git` holds 300,000 folders (planted in
// `.git/modules`, ordinary writable content before this change) must cost at most 20 ms more than
// on a clean one. One call = what core does per bash call: createSandboxPolicy (the git
// redirection scan) + wrap + `bash -c true` under bubblewrap + release (mount points, git audit).
// Clean and planted workspaces alternate in each round (paired); medians of the rounds, and of
// the per-round differences, with the load average. Run after a build:
// `pnpm turbo run build --filter @openwork/sandbox && pnpm --filter @openwork/sandbox bench`.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BubblewrapBackend, createSandboxPolicy } from '../dist/index.js';

const rounds = Number(process.env.RUNS ?? 30);
const plantedFolders = Number(process.env.PLANTED_FOLDERS ?? 300_000);
const budgetMs = 20;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function run(argv, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, stdio: 'ignore', detached: true });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${argv[0]} exited ${code}`))));
  });
}

function git(cwd, home, ...args) {
  execFileSync('git', args, {
    cwd,
    stdio: 'ignore',
    env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@openwork.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@openwork.invalid' },
  });
}

async function repository(directory, home) {
  await fs.mkdir(directory, { recursive: true });
  await fs.writeFile(path.join(directory, 'a.txt'), 'a\n');
  git(directory, home, 'init', '-q', '-b', 'main');
  git(directory, home, 'add', '.');
  git(directory, home, 'commit', '-q', '-m', 'first');
}

/** 300,000 empty folders in `.git/modules`, 1,000 per module-like folder, as in the issue. */
async function plant(workspace) {
  const modules = path.join(workspace, '.git/modules');
  for (let group = 0; group * 1000 < plantedFolders; group += 1) {
    const parent = path.join(modules, `m${group}`);
    await fs.mkdir(parent, { recursive: true });
    const count = Math.min(1000, plantedFolders - group * 1000);
    await Promise.all(Array.from({ length: count }, (_, index) => fs.mkdir(path.join(parent, `f${index}`))));
  }
}

async function oneCall(backend, workspace, home, tempRoots) {
  const start = performance.now();
  const policy = createSandboxPolicy({ workspaceRoots: [workspace], homeDirectory: home, tempRoots });
  const scanned = performance.now();
  const wrapped = backend.wrap({ argv: ['/bin/bash', '-c', 'true'], cwd: workspace }, policy);
  try {
    await run(wrapped.argv, workspace);
  } finally {
    await wrapped.release();
  }
  return { total: performance.now() - start, policy: scanned - start };
}

const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ow-planted-git-bench-')));
try {
  const home = path.join(root, 'home');
  await fs.mkdir(home);
  const clean = path.join(root, 'clean');
  const planted = path.join(root, 'planted');
  await repository(clean, home);
  await repository(planted, home);
  const plantStart = performance.now();
  await plant(planted);
  console.log(`planted ${plantedFolders} folders in .git/modules in ${((performance.now() - plantStart) / 1000).toFixed(1)} s`);
  const temp = path.join(root, 'tmp');
  await fs.mkdir(temp);
  const backend = new BubblewrapBackend();
  const availability = await backend.selfCheck();
  if (!availability.available) throw new Error(`bubblewrap unavailable: ${availability.reason}`);
  for (let warmup = 0; warmup < 3; warmup += 1) {
    await oneCall(backend, clean, home, [temp]);
    await oneCall(backend, planted, home, [temp]);
  }
  const results = { clean: [], planted: [], cleanPolicy: [], plantedPolicy: [], difference: [] };
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? ['clean', 'planted'] : ['planted', 'clean'];
    const pair = {};
    for (const name of order) {
      const result = await oneCall(backend, name === 'clean' ? clean : planted, home, [temp]);
      pair[name] = result;
      results[name].push(result.total);
      results[`${name}Policy`].push(result.policy);
    }
    results.difference.push(pair.planted.total - pair.clean.total);
  }
  const difference = median(results.difference);
  console.log(`one bash call (createSandboxPolicy + wrap + bash -c true + release), ${rounds} paired rounds, alternating order:`);
  console.log(`  clean workspace      median: ${median(results.clean).toFixed(2)} ms (policy ${median(results.cleanPolicy).toFixed(2)} ms)`);
  console.log(`  ${plantedFolders} folders in .git median: ${median(results.planted).toFixed(2)} ms (policy ${median(results.plantedPolicy).toFixed(2)} ms)`);
  console.log(`  paired difference median: ${difference.toFixed(2)} ms (budget <= ${budgetMs} ms): ${difference <= budgetMs ? 'met' : 'NOT met'}; ratio ${(median(results.planted) / median(results.clean)).toFixed(3)}`);
  console.log(`load average: ${os.loadavg().map((load) => load.toFixed(2)).join(' ')} on ${os.cpus().length} CPUs`);
} finally {
  await fs.rm(root, { recursive: true, force: true });
}
