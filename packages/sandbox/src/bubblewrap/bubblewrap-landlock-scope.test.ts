import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapBackend, createSandboxPolicy } from '../index.js';
import type { SandboxMode } from '../index.js';
import { landlockScopeMissingHere } from '../landlock/test-support/landlock-scope-here.js';
import { makeTempDirectory, requireBubblewrap, runWrapped, spawnSandboxed } from './test-support/run-wrapped.js';

/**
 * Architecture §3.7 on the real kernel: with `network: 'allow'` (the default) a sandboxed command
 * shares the host's network namespace, so abstract UNIX sockets of host processes are in reach by
 * name; the Landlock scope makes them unreachable while the command's own abstract sockets, its
 * job control, our timeout kill and the network keep working. It needs Landlock ABI ≥ 6 on x86-64:
 * without, it skips with the reason in its name, and fails in CI (`landlockScopeMissingHere`).
 */
const missing = landlockScopeMissingHere();
const backend = new BubblewrapBackend();
const node = JSON.stringify(process.execPath);
let root: string;
let workspace: string;
let home: string;
let temp: string;
const servers: net.Server[] = [];
const hostAbstract = `\0openwork-test-${process.pid}-${Math.random().toString(36).slice(2)}`;
let tcpPort = 0;

beforeAll(async () => {
  if (missing !== undefined) return;
  await requireBubblewrap();
  root = await makeTempDirectory('ow-bwrap-landlock-');
  workspace = path.join(root, 'ws');
  home = path.join(root, 'home');
  temp = path.join(root, 'tmp');
  for (const folder of [workspace, home, temp]) await fs.mkdir(folder, { recursive: true });
  // A host daemon on an abstract name: it answers whoever connects (what a D-Bus bus or X11 does).
  const daemon = net.createServer((socket) => socket.end('host daemon\n'));
  await new Promise<void>((resolve, reject) => daemon.once('error', reject).listen(hostAbstract, resolve));
  servers.push(daemon);
  const tcp = net.createServer((socket) => socket.end('tcp answer\n'));
  await new Promise<void>((resolve, reject) => tcp.once('error', reject).listen(0, '127.0.0.1', resolve));
  tcpPort = (tcp.address() as net.AddressInfo).port;
  servers.push(tcp);
});

afterAll(async () => {
  if (missing !== undefined) return;
  for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
  if (root !== undefined) await fs.rm(root, { recursive: true, force: true });
});

function policy(mode: SandboxMode = 'workspace-write') {
  return createSandboxPolicy({ mode, workspaceRoots: [workspace], homeDirectory: home, tempRoots: [temp] });
}

/** Node inside the sandbox connects to `address` and prints the answer or the error code. */
function connectTo(address: string | number): string {
  const target = typeof address === 'number' ? `{port:${address},host:'127.0.0.1'}` : JSON.stringify(address);
  const client = `const s=require('net').connect(${target});s.on('data',d=>process.stdout.write('answer '+d));s.on('error',e=>console.log('refused '+e.code))`;
  return `${node} -e ${JSON.stringify(client)}`;
}

async function bash(script: string, options: { backend?: BubblewrapBackend; mode?: SandboxMode } = {}) {
  const wrapped = (options.backend ?? backend).wrap({ argv: ['/bin/bash', '-c', script], cwd: workspace }, policy(options.mode));
  return runWrapped(wrapped, workspace);
}

describe.skipIf(missing !== undefined)(`Landlock scope: abstract UNIX sockets and signals (architecture §3.7)${missing === undefined ? '' : ` — skipped: ${missing}`}`, () => {
  it('a host abstract-socket daemon is unreachable from sandboxed bash with network allow, in every mode', async () => {
    for (const mode of ['read-only', 'workspace-write', 'full-access'] as const) {
      const result = await bash(connectTo(hostAbstract), { mode });
      expect(result.stdout, mode).toBe('refused EPERM\n');
    }
    // The same command without the scope reaches it: what the scope changes (and the fallback where it cannot exist).
    const unscoped = await bash(connectTo(hostAbstract), { backend: new BubblewrapBackend({ landlockScope: false }) });
    expect(unscoped.stdout).toBe('answer host daemon\n');
  });

  it("the command's own abstract server and client within one call still work", async () => {
    const own = `\\0openwork-own-${process.pid}`;
    const server = `require('net').createServer(s=>s.end('own daemon\\n')).listen('${own}',()=>console.log('listening'))`;
    const client = `const s=require('net').connect('${own}');s.on('data',d=>{process.stdout.write(String(d));process.exit(0)});s.on('error',e=>console.log('refused '+e.code))`;
    const script = `${node} -e ${JSON.stringify(server)} > ${temp}/listening & for i in $(seq 200); do [ -s ${temp}/listening ] && break; sleep 0.05; done; ${node} -e ${JSON.stringify(client)}; kill %1`;
    const result = await bash(script);
    expect(result.stdout).toBe('own daemon\n');
  });

  it('signals outside the sandbox are refused, while job control inside works', async () => {
    // PID 1 is bwrap itself, outside the Landlock domain: the only process outside the sandbox a command can name.
    const script = [
      'kill -0 1 2>/dev/null && echo "pid 1 signalled" || echo "pid 1 refused"',
      'sleep 30 & kill -STOP %1 && kill -CONT %1 && kill %1; wait %1; echo "job status $?"',
      'set -m; sleep 30 & kill -TERM -$! && wait; echo "group killed"',
      '(trap "echo trapped; exit 0" USR1; kill -USR1 $BASHPID; sleep 1)',
    ].join('\n');
    const result = await bash(script);
    expect(result.stdout).toBe('pid 1 refused\njob status 143\ngroup killed\ntrapped\n');
    expect(result.code).toBe(0);
    const unscoped = await bash('kill -0 1 && echo "pid 1 signalled"', { backend: new BubblewrapBackend({ landlockScope: false }) });
    expect(unscoped.stdout).toBe('pid 1 signalled\n');
  });

  it("the host's timeout kill still ends the whole sandboxed tree", async () => {
    const wrapped = backend.wrap({ argv: ['/bin/bash', '-c', 'sleep 60 & sleep 60'], cwd: workspace }, policy());
    try {
      const { closed } = spawnSandboxed(wrapped.argv, workspace, 'ignore', 300);
      const [code, signal] = await closed;
      expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
    } finally {
      await wrapped.release();
    }
  });

  it('the network still works: loopback TCP to a host server', async () => {
    const result = await bash(connectTo(tcpPort));
    expect(result.stdout).toBe('answer tcp answer\n');
  });

  it('a bare program name is found on the command PATH, and a missing program fails with a clear line', async () => {
    const bare = await runWrapped(backend.wrap({ argv: ['printf', '%s|', 'a b', 'c'], cwd: workspace }, policy()), workspace);
    expect(bare).toMatchObject({ code: 0, stdout: 'a b|c|' });
    const missing = await runWrapped(backend.wrap({ argv: [path.join(workspace, 'no-such-program')], cwd: workspace }, policy()), workspace);
    expect(missing.code).toBe(127);
    expect(missing.stderr).toBe('openwork sandbox: the command could not be started (execve failed)\n');
  });
});
