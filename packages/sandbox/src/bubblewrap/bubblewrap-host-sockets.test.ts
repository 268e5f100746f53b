import { exec, execFileSync, spawnSync } from 'node:child_process';
import { unlinkSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapBackend, createSandboxPolicy } from '../index.js';
import type { NetworkAccess, SandboxMode } from '../index.js';
import { runStagedSelfCheck } from '../staging/run-staged-self-check.js';
import { makeTempDirectory, requireBubblewrap, runWrapped } from './test-support/run-wrapped.js';

/**
 * Architecture §3.7 "reachable processes", on the real kernel: host daemons that would run a
 * command for whoever connects (what tmux `run-shell`, a docker socket or `systemd --user` do) must
 * be unreachable from a sandboxed command, while the command's own sockets keep working.
 */
const backend = new BubblewrapBackend();
let root: string;
let workspace: string;
let home: string;
let temp: string;
let readOnlyFolder: string;
let runUser: string;
const daemons: net.Server[] = [];
const abstractName = `\0openwork-test-daemon-${process.pid}`;

/** A host daemon: every line it receives is run as a shell command, outside the sandbox. */
async function startDaemon(address: string): Promise<void> {
  const server = net.createServer((socket) => {
    socket.setEncoding('utf8');
    let text = '';
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (!text.includes('\n')) return;
      exec(text.trim(), () => socket.end('ran\n'));
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(address, resolve));
  daemons.push(server);
}

function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  await requireBubblewrap();
  root = await makeTempDirectory('ow-bwrap-sockets-');
  workspace = path.join(root, 'ws');
  home = path.join(root, 'home');
  temp = path.join(root, 'tmp');
  readOnlyFolder = path.join(root, 'daemon-ro');
  runUser = path.join(root, 'run/user/1000');
  for (const folder of [workspace, home, temp, readOnlyFolder, runUser]) await fs.mkdir(folder, { recursive: true });
  await startDaemon(path.join(temp, 'tmux-1000-default')); // a socket in a writable temp root
  await startDaemon(path.join(readOnlyFolder, 'agent.sock')); // connect() works on read-only mounts
  await startDaemon(path.join(runUser, 'bus')); // D-Bus / systemd --user live in /run/user/<uid>
  await startDaemon(path.join(workspace, 'daemon.sock')); // even inside the workspace
  await startDaemon(abstractName);
});

afterAll(async () => {
  for (const server of daemons) await new Promise<void>((resolve) => server.close(() => resolve()));
  if (root !== undefined) await fs.rm(root, { recursive: true, force: true });
});

function policy(mode: SandboxMode, options: { network?: NetworkAccess; allowSockets?: string[] } = {}) {
  return createSandboxPolicy({ mode, workspaceRoots: [workspace], homeDirectory: home, tempRoots: [temp], ...options });
}

/** Node inside the sandbox asks the daemon at `address` to create `marker`; prints what happened. */
function askDaemon(address: string, marker: string): string {
  const client = `const s=require('net').connect(${JSON.stringify(address)});s.on('connect',()=>s.write('touch ${marker}\\n'));s.on('data',d=>{process.stdout.write('answer '+d);s.end()});s.on('error',e=>{console.log('refused '+e.code)})`;
  return `${JSON.stringify(process.execPath)} -e ${JSON.stringify(client)}`;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(() => true, () => false);
}

const hostSockets = () => [
  path.join(temp, 'tmux-1000-default'),
  path.join(readOnlyFolder, 'agent.sock'),
  path.join(runUser, 'bus'),
  path.join(workspace, 'daemon.sock'),
];

describe('UNIX sockets of host daemons (architecture §3.7)', () => {
  it('a sandboxed command reaches no host daemon by its socket file, in every mode: temp root, read-only folder, /run/user, workspace', async () => {
    for (const mode of ['read-only', 'workspace-write', 'full-access'] as const) {
      for (const [index, socket] of hostSockets().entries()) {
        const marker = path.join(root, `ran-${mode}-${index}`);
        const result = await runWrapped(backend.wrap({ argv: ['/bin/bash', '-c', askDaemon(socket, marker)], cwd: workspace }, policy(mode)), workspace);
        expect(result.stdout, `${mode} ${socket}`).toBe('refused ECONNREFUSED\n');
        expect(await exists(marker), `${mode} ${socket}: the daemon ran the command`).toBe(false);
        // The socket file itself is untouched on the host: the daemon still serves the host.
      }
    }
    const probe = await new Promise<string>((resolve) => {
      const socket = net.connect(hostSockets()[0] as string, () => socket.end());
      socket.on('close', () => resolve('connected'));
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(probe).toBe('connected');
  });

  it("abstract sockets are unreachable with network 'none' (a network namespace of its own)", async () => {
    const marker = path.join(root, 'ran-abstract');
    const result = await runWrapped(backend.wrap({ argv: ['/bin/bash', '-c', askDaemon(abstractName, marker)], cwd: workspace }, policy('workspace-write', { network: 'none' })), workspace);
    expect(result.stdout).toBe('refused ECONNREFUSED\n');
    expect(await exists(marker)).toBe(false);
  });

  it("the command's own sockets still work: a daemon it starts in its temp folder answers it", async () => {
    const ownSocket = path.join(temp, 'own-build-daemon.sock');
    const server = `require('net').createServer(s=>{s.end('own daemon\\n')}).listen(${JSON.stringify(ownSocket)},()=>console.log('listening'))`;
    const client = `const s=require('net').connect(${JSON.stringify(ownSocket)});s.on('data',d=>{process.stdout.write(String(d));process.exit(0)});s.on('error',e=>{console.log('refused '+e.code)})`;
    const node = JSON.stringify(process.execPath);
    const script = `${node} -e ${JSON.stringify(server)} > ${temp}/listening & for i in $(seq 100); do [ -s ${temp}/listening ] && break; sleep 0.05; done; ${node} -e ${JSON.stringify(client)}; kill %1`;
    for (const network of ['allow', 'none'] as const) {
      await fs.rm(ownSocket, { force: true });
      const result = await runWrapped(backend.wrap({ argv: ['/bin/bash', '-c', script], cwd: workspace }, policy('workspace-write', { network })), workspace);
      expect(result.stdout, network).toBe('own daemon\n');
    }
    await fs.rm(ownSocket, { force: true });
  });

  it('allowSockets reopens exactly the named socket (ssh-agent for git push)', async () => {
    const [allowed, other] = [path.join(readOnlyFolder, 'agent.sock'), path.join(runUser, 'bus')];
    const open = policy('workspace-write', { allowSockets: [allowed] });
    const marker = path.join(root, 'ran-allowed');
    const reached = await runWrapped(backend.wrap({ argv: ['/bin/bash', '-c', askDaemon(allowed, marker)], cwd: workspace }, open), workspace);
    expect(reached.stdout).toBe('answer ran\n');
    expect(await exists(marker)).toBe(true);
    const blocked = await runWrapped(backend.wrap({ argv: ['/bin/bash', '-c', askDaemon(other, `${marker}-other`)], cwd: workspace }, open), workspace);
    expect(blocked.stdout).toBe('refused ECONNREFUSED\n');
  });

  it('a socket whose daemon ends between wrap and the start: the stage helper skips its mask (nothing left to hide), the command runs, and nothing is made on the host', async () => {
    const socket = path.join(temp, 'short-lived.sock');
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socket, resolve));
    const wrapped = backend.wrap({ argv: ['/bin/true'], cwd: workspace }, policy('workspace-write'));
    expect(wrapped.argv.slice(wrapped.argv.indexOf('--'))).toContain(socket); // masked by the stage helper, on top of the overlay
    await new Promise<void>((resolve) => server.close(() => resolve())); // the daemon ends: its socket file goes
    expect(await exists(socket)).toBe(false);
    try {
      // (It failed with exit 127 before the command ran; with two test files side by side, one file's
      // servers in the shared /tmp ended under the other's calls.)
      const run = spawnSync(wrapped.argv[0] as string, wrapped.argv.slice(1), { cwd: workspace, encoding: 'utf8' });
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    } finally {
      await wrapped.release();
    }
    expect(await exists(socket)).toBe(false);
    // A daemon's live socket is never taken for such a file.
    const live = path.join(temp, 'tmux-1000-default');
    expect((await fs.lstat(live)).isSocket()).toBe(true);
  });

  it("the self-check is not failed by a socket that goes away between its wrap and its start (wrap would refuse for the process's life)", async () => {
    const socket = path.join(os.tmpdir(), `ow-short-lived-check-${process.pid}.sock`);
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socket, resolve));
    let vanished = false;
    try {
      const availability = await runStagedSelfCheck(backend.bwrapPath, {
        beforeStart: () => {
          if (vanished) return;
          vanished = true;
          unlinkSync(socket); // the daemon ends right after the rendering masked its socket
        },
      });
      expect(vanished).toBe(true);
      expect(availability).toEqual({ available: true });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it.skipIf(!hasTmux())('real tmux: a sandboxed tmux client cannot make the host tmux server run-shell or open a window', async () => {
    const socket = path.join(temp, 'tmux-host');
    const marker = path.join(root, 'ran-by-tmux');
    const environment: NodeJS.ProcessEnv = { ...process.env, TMUX_TMPDIR: temp, HOME: home };
    delete environment['TMUX'];
    execFileSync('tmux', ['-S', socket, '-f', '/dev/null', 'new-session', '-d', '-s', 'host', 'sleep 600'], { env: environment });
    try {
      const script = `tmux -S ${socket} run-shell 'touch ${marker}'; echo "run-shell $?"; tmux -S ${socket} new-window 'touch ${marker}'; echo "new-window $?"`;
      const result = await runWrapped(backend.wrap({ argv: ['/bin/bash', '-c', script], cwd: workspace }, policy('full-access')), workspace);
      expect(result.stdout).toBe('run-shell 1\nnew-window 1\n');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await exists(marker)).toBe(false);
      // The host server is still there for the user.
      expect(execFileSync('tmux', ['-S', socket, 'list-sessions', '-F', '#S'], { env: environment, encoding: 'utf8' })).toBe('host\n');
    } finally {
      execFileSync('tmux', ['-S', socket, 'kill-server'], { env: environment, stdio: 'ignore' });
    }
  });
});
