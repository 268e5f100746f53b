// Wall time of `bash -c true` under bubblewrap vs unsandboxed, interleaved in one run (§3.4),
// plus bare bwrap as a floor: what any bwrap sandbox costs on this machine before our layout.
// Two layouts: a repository in workspace-write (the common case; timed with staged writes, the
// default, and with the previous layout of one mount per protected name), and full-access with a home
// whose dotfiles are symbolic links (how dotfile managers set up homes), where the folder that
// holds a linked protected name is sealed (README "Protected names that are symbolic links").
// Run after a build: `pnpm turbo run build --filter @openwork/sandbox && pnpm --filter @openwork/sandbox bench`.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BubblewrapBackend, createSandboxPolicy } from '../dist/index.js';
import { PREVIOUS_SANDBOX_COMMIT, previousSandbox } from '../../../tooling/bench/previous-sandbox.mjs';

const runs = Number(process.env.RUNS ?? 50);
const targetOverheadMs = 15;

function run(argv, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, stdio: 'ignore', detached: true });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${argv[0]} exited ${code}`))));
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A repository without hooks, no .envrc/.vscode/.idea (mount points to create and remove on every call). */
async function repositoryWorkspace(root) {
  const workspace = path.join(root, 'ws');
  await fs.mkdir(path.join(workspace, '.git'), { recursive: true });
  await fs.writeFile(path.join(workspace, '.git/HEAD'), 'ref: refs/heads/main\n');
  await fs.writeFile(path.join(workspace, '.git/config'), '[core]\n\tbare = false\n');
  return workspace;
}

/** A home with credentials, 40 ordinary entries, and shell start-up files that are links into ~/dotfiles. */
async function dotfileHome(root) {
  const home = path.join(root, 'home');
  await fs.mkdir(path.join(home, '.ssh'), { recursive: true });
  await fs.writeFile(path.join(home, '.ssh/id_ed25519'), 'key\n');
  await fs.mkdir(path.join(home, 'dotfiles/fish'), { recursive: true });
  for (let index = 0; index < 20; index += 1) {
    await fs.mkdir(path.join(home, `project-${index}`));
    await fs.writeFile(path.join(home, `.tool-${index}rc`), '\n');
  }
  for (const name of ['bashrc', 'profile', 'zshrc', 'gitconfig']) {
    await fs.writeFile(path.join(home, 'dotfiles', name), `# ${name}\n`);
    await fs.symlink(`dotfiles/${name}`, path.join(home, `.${name}`));
  }
  await fs.mkdir(path.join(home, '.config'), { recursive: true });
  await fs.symlink('../dotfiles/fish', path.join(home, '.config/fish'));
  return home;
}

async function measure(backend, policy, cwd) {
  const command = ['/bin/bash', '-c', 'true'];
  const plain = [];
  const sandboxed = [];
  // bwrap's own floor (a mount namespace and nothing else), to tell its cost from our layout's.
  const floor = [];
  const floorArgv = [backend.bwrapPath, '--ro-bind', '/', '/', '--', ...command];
  for (let warmup = 0; warmup < 5; warmup += 1) {
    await run(command, cwd);
    const wrapped = backend.wrap({ argv: command, cwd }, policy);
    await run(wrapped.argv, cwd).finally(() => wrapped.release());
  }
  let mounts = 0;
  for (let index = 0; index < runs; index += 1) {
    let start = performance.now();
    await run(command, cwd);
    plain.push(performance.now() - start);

    start = performance.now();
    const wrapped = backend.wrap({ argv: command, cwd }, policy);
    try {
      await run(wrapped.argv, cwd);
    } finally {
      await wrapped.release();
    }
    sandboxed.push(performance.now() - start);
    // bwrap's own mount options; a staged layout's overlays are mounted by its helper and not counted here.
    mounts = wrapped.argv.filter((argument) => /^--(?:ro-)?bind$|^--tmpfs$/.test(argument)).length;

    start = performance.now();
    await run(floorArgv, cwd);
    floor.push(performance.now() - start);
  }
  // wrap + release alone (no process): the cost of planning the mounts and the host-side mount points.
  // CPU time too: on a loaded machine it says more about our own work than wall time does.
  const wrapOnly = [];
  const cpuBefore = process.cpuUsage();
  for (let index = 0; index < runs * 4; index += 1) {
    const start = performance.now();
    const wrapped = backend.wrap({ argv: command, cwd }, policy);
    await wrapped.release();
    wrapOnly.push(performance.now() - start);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const wrapCpu = (cpu.user + cpu.system) / 1000 / (runs * 4);
  return { plain: median(plain), sandboxed: median(sandboxed), floor: median(floor), wrapOnly: median(wrapOnly), wrapCpu, mounts };
}

function report(name, result) {
  const overhead = result.sandboxed - result.plain;
  console.log(`${name}: bash -c true, ${runs} runs each, interleaved (wrap + spawn + exit + release), ${result.mounts} mounts`);
  console.log(`  unsandboxed median: ${result.plain.toFixed(2)} ms`);
  console.log(`  bubblewrap  median: ${result.sandboxed.toFixed(2)} ms  (${(result.sandboxed / result.plain).toFixed(2)}x the unsandboxed reference)`);
  console.log(`  overhead: ${overhead.toFixed(2)} ms (target <= ${targetOverheadMs} ms): ${overhead <= targetOverheadMs ? 'met' : 'NOT met'}`);
  console.log(`  bare 'bwrap --ro-bind / /' median: ${result.floor.toFixed(2)} ms (floor overhead ${(result.floor - result.plain).toFixed(2)} ms; our layout adds ${(result.sandboxed - result.floor).toFixed(2)} ms)`);
  console.log(`  wrap + release alone (no process) median: ${result.wrapOnly.toFixed(2)} ms wall, ${result.wrapCpu.toFixed(2)} ms CPU on average`);
}

const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ow-bwrap-bench-')));
try {
  const workspace = await repositoryWorkspace(root);
  const home = await dotfileHome(root);
  await fs.mkdir(path.join(root, 'tmp'));
  const tempRoots = [path.join(root, 'tmp')];
  const backend = new BubblewrapBackend();
  const availability = await backend.selfCheck();
  if (!availability.available) throw new Error(`bubblewrap unavailable: ${availability.reason}`);

  const workspaceWrite = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, tempRoots });
  report('workspace-write, a repository (staged writes, the default)', await measure(backend, workspaceWrite, workspace));
  // The previous layout is no longer in the package: built from the last commit that had it.
  const previousBuild = await previousSandbox();
  try {
    const previous = await import(previousBuild.url);
    const previousPolicy = previous.createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, tempRoots });
    report(`workspace-write, a repository, previous layout (${PREVIOUS_SANDBOX_COMMIT})`, await measure(new previous.BubblewrapBackend(), previousPolicy, workspace));
  } finally {
    previousBuild.remove();
  }
  const fullAccess = createSandboxPolicy({ mode: 'full-access', workspaceRoots: [workspace], homeDirectory: home, tempRoots });
  report('full-access, a home of dotfile links', await measure(backend, fullAccess, workspace));
  console.log(`load average: ${os.loadavg().map((load) => load.toFixed(2)).join(' ')} on ${os.cpus().length} CPUs`);
} finally {
  await fs.rm(root, { recursive: true, force: true });
}
