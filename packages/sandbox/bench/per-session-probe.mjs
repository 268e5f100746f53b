// Issue 25's bash goal, the design the builtins README rejects ("Why not a per-session sandbox"),
// measured so the decision rests on a figure: one bwrap per session with our real layout and a
// supervisor inside it (`per-session-probe-supervisor.mjs`: each command in a nested Landlock
// domain, every other process killed after it), against a sandbox made per call (`wrap`, spawn,
// `release`, what the bash tool does) and a plain spawn of `bash -c true`, paired rounds in
// alternating order. Each per-session call also renders the layout from the host afresh, the least
// it would need to see a change made between two calls (it does not restart on one: a probe).
// Not product code: nothing here is used by the sandbox. Run after a build:
// `pnpm turbo run build --filter @openwork/sandbox && node packages/sandbox/bench/per-session-probe.mjs` (ROUNDS=n).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { BubblewrapBackend, createSandboxPolicy, deriveSandboxLayout } from '../dist/index.js';
import { snapshotBubblewrapHost } from '../dist/bubblewrap/bubblewrap-host.js';
import { renderBubblewrapArguments } from '../dist/bubblewrap/render-bubblewrap-arguments.js';

const rounds = Number(process.env.ROUNDS ?? 40);
const here = path.dirname(fileURLToPath(import.meta.url));
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

function plainSpawn(argv, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${argv.join(' ')} exited ${code}`))));
  });
}

// The workspace and home outside every temp root, as a user's are (bench:mcp does the same).
const cache = path.join(here, '..', 'node_modules', '.cache');
fs.mkdirSync(cache, { recursive: true });
const root = fs.realpathSync(fs.mkdtempSync(path.join(cache, 'ow-per-session-')));
let supervisor;
try {
  const workspace = path.join(root, 'ws');
  const home = path.join(root, 'home');
  fs.mkdirSync(path.join(workspace, '.git'), { recursive: true });
  fs.mkdirSync(home);
  const policy = createSandboxPolicy({ workspaceRoots: [workspace], homeDirectory: home, openworkHome: path.join(home, '.openwork'), tempRoots: ['/tmp'] });
  const backend = new BubblewrapBackend();
  const availability = await backend.selfCheck();
  if (!availability.available) throw new Error(`bubblewrap is unavailable: ${availability.reason}`);
  const scope = backend.landlockScope(policy.openworkHome);
  if (!scope.scoped) throw new Error(`the probe needs the Landlock scope (commands in a nested domain): ${scope.reason}`);

  const session = backend.wrap({ argv: [process.execPath, path.join(here, 'per-session-probe-supervisor.mjs'), scope.helperPath], cwd: workspace }, policy);
  supervisor = { wrapped: session, child: spawn(session.argv[0], session.argv.slice(1), { cwd: workspace, stdio: ['pipe', 'pipe', 'inherit'] }) };
  let answer;
  createInterface({ input: supervisor.child.stdout }).on('line', (line) => answer(JSON.parse(line)));
  const layout = deriveSandboxLayout(policy);
  const perSession = (command) =>
    new Promise((resolve) => {
      renderBubblewrapArguments(layout, { argv: ['/bin/bash', '-c', command], cwd: workspace }, snapshotBubblewrapHost());
      answer = resolve;
      supervisor.child.stdin.write(`${JSON.stringify({ command, cwd: workspace })}\n`);
    });
  const perCall = async () => {
    const wrapped = backend.wrap({ argv: ['/bin/bash', '-c', 'true'], cwd: workspace }, policy);
    try {
      await plainSpawn(wrapped.argv, workspace);
    } finally {
      await wrapped.release();
    }
  };

  // What the probe keeps of the per-call promise: a daemon of one call is gone at the next.
  await perSession('(setsid sleep 600 &) ; true');
  const left = await perSession('ps -e -o comm= | grep -c "^sleep$" || true');
  const timed = async (action) => {
    const begin = performance.now();
    await action();
    return performance.now() - begin;
  };
  for (let warm = 0; warm < 5; warm += 1) {
    await perSession('true');
    await perCall();
    await plainSpawn(['/bin/bash', '-c', 'true'], workspace);
  }
  const loadBefore = loadavg().map((value) => value.toFixed(2)).join(' ');
  const series = { plain: [], perCall: [], perSession: [] };
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? ['plain', 'perCall', 'perSession'] : ['perSession', 'perCall', 'plain'];
    const took = {};
    for (const what of order) {
      if (what === 'plain') took.plain = await timed(() => plainSpawn(['/bin/bash', '-c', 'true'], workspace));
      else if (what === 'perCall') took.perCall = await timed(perCall);
      else took.perSession = await timed(() => perSession('true'));
    }
    series.plain.push(took.plain);
    series.perCall.push(took.perCall - took.plain);
    series.perSession.push(took.perSession - took.plain);
  }
  const loadAfter = loadavg().map((value) => value.toFixed(2)).join(' ');
  console.log(`bash -c true in process, ${rounds} paired rounds; load average ${loadBefore} before, ${loadAfter} after`);
  console.log(`  plain spawn                                     : ${median(series.plain).toFixed(2)} ms [reference]`);
  console.log(`  sandbox per call (wrap, spawn, release)         : +${median(series.perCall).toFixed(2)} ms`);
  console.log(`  one sandbox per session (render, run, kill all) : +${median(series.perSession).toFixed(2)} ms`);
  console.log(`  sleep daemons left from the previous call       : ${left.output.trim()} (must be 0)`);
} finally {
  supervisor?.child.kill('SIGKILL');
  if (supervisor !== undefined) {
    await new Promise((resolve) => (supervisor.child.exitCode !== null || supervisor.child.signalCode !== null ? resolve() : supervisor.child.once('close', resolve)));
    await supervisor.wrapped.release();
  }
  fs.rmSync(root, { recursive: true, force: true });
}
