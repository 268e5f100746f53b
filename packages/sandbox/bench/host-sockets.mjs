// Per-call cost of the socket, credential and start-up rules (architecture §3.7/§3.8), paired and interleaved in one run:
//  1. masking host UNIX sockets: `bash -c true` under bubblewrap with 40 extra host daemons
//     listening, masked vs the same call with all 40 in `allowSockets` (so not masked);
//  2. `network: 'none'` (a network namespace: what makes abstract sockets unreachable) vs `allow`;
//  3. createSandboxPolicy with the default lists (~100 credential and ~55 start-up
//     entries, mount aliases, PATH folders) vs the 15 + 13 entries before it.
// Medians of paired rounds, with the load average (the machine is shared; read ratios, not times).
// Run after a build: `pnpm turbo run build --filter @openwork/sandbox && node packages/sandbox/bench/host-sockets.mjs`.
import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate as tick } from 'node:timers/promises';
import { median, run, timedCall } from './timed-call.mjs';
import { BubblewrapBackend, createSandboxPolicy } from '../dist/index.js';

const rounds = Number(process.env.RUNS ?? 40);

function line(name, a, b, labelA, labelB) {
  const ma = median(a);
  const mb = median(b);
  console.log(`${name}: ${labelA} ${ma.toFixed(2)} ms, ${labelB} ${mb.toFixed(2)} ms, ratio ${(ma / mb).toFixed(2)} (paired medians of ${a.length})`);
}

const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ow-sockets-bench-')));
const servers = [];
try {
  const workspace = path.join(root, 'ws');
  const home = path.join(root, 'home');
  await fs.mkdir(workspace);
  await fs.mkdir(home);
  for (let index = 0; index < 40; index += 1) {
    const server = net.createServer();
    await new Promise((resolve) => server.listen(path.join(root, `daemon-${index}.sock`), resolve));
    servers.push(server);
  }
  const options = { mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, tempRoots: [] };
  const policy = createSandboxPolicy(options);
  const open = createSandboxPolicy({ ...options, allowSockets: servers.map((_, index) => path.join(root, `daemon-${index}.sock`)) });
  const backend = new BubblewrapBackend();
  console.log(`load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}, ${os.cpus().length} CPUs`);
  const counted = backend.wrap({ argv: ['true'], cwd: workspace }, policy);
  console.log(`host sockets masked per call: ${counted.argv.filter((argument, index, all) => argument === '/dev/null' && all[index - 1] === '--ro-bind').length}`);
  await counted.release();

  const withMasks = [];
  const withoutMasks = [];
  const none = [];
  const allow = [];
  const nonePolicy = createSandboxPolicy({ ...options, network: 'none', allowSockets: open.allowedSockets });
  for (let index = 0; index < 5; index += 1) await timedCall(backend, policy, workspace);
  for (let index = 0; index < rounds; index += 1) {
    withMasks.push(await timedCall(backend, policy, workspace));
    withoutMasks.push(await timedCall(backend, open, workspace));
    none.push(await timedCall(backend, nonePolicy, workspace));
    allow.push(await timedCall(backend, open, workspace));
  }
  line('host socket masks (40 daemons)', withMasks, withoutMasks, 'masked', 'unmasked');
  line("network 'none' (own network namespace)", none, allow, 'none', 'allow');

  const before = {
    ...options,
    credentialPaths: { replace: ['.ssh', '.gnupg', '.aws', '.azure', '.config/gcloud', '.kube', '.docker', '.netrc', '.git-credentials', '.npmrc', '.pypirc', '.config/gh', '.password-store', '.local/share/keyrings', 'Library/Keychains'] },
    sensitiveHomePaths: { replace: ['.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zprofile', '.zshenv', '.zlogin', '.zlogout', '.config/fish', '.gitconfig', '.config/git/config'] },
    executableSearchPath: '',
  };
  const current = [];
  const previous = [];
  for (let index = 0; index < rounds * 2; index += 1) {
    await tick();
    let start = performance.now();
    createSandboxPolicy(options);
    current.push(performance.now() - start);
    await tick();
    start = performance.now();
    createSandboxPolicy(before);
    previous.push(performance.now() - start);
  }
  line('createSandboxPolicy', current, previous, 'current defaults', 'previous defaults');
} finally {
  for (const server of servers) server.close();
  await fs.rm(root, { recursive: true, force: true });
}
