import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapBackend, createSandboxPolicy, deriveSandboxLayout, detectSandboxDenial } from '../index.js';
import type { NetworkAccess, SandboxMode } from '../index.js';
import { makeTempDirectory, requireBubblewrap, runWrapped } from './test-support/run-wrapped.js';

const backend = new BubblewrapBackend();
let root: string;
let workspace: string;
let home: string;
let server: net.Server;
let port: number;
/** Every line a connection delivered to the listener, in order. */
const received: string[] = [];

beforeAll(async () => {
  await requireBubblewrap();
  root = await makeTempDirectory('ow-bwrap-network-');
  workspace = path.join(root, 'ws');
  home = path.join(root, 'home');
  await fs.mkdir(workspace);
  await fs.mkdir(home);
  // A listener on the host's loopback: what `curl localhost:3000`, a local registry or a database would be.
  server = net.createServer((socket) => {
    socket.setEncoding('utf8');
    let text = '';
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => received.push(text));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  if (root !== undefined) await fs.rm(root, { recursive: true, force: true });
});

function policy(mode: SandboxMode, network?: NetworkAccess) {
  return createSandboxPolicy({ mode, workspaceRoots: [workspace], homeDirectory: home, tempRoots: [], network });
}

/** bash's own TCP client: connect to the host listener, send one line, close. */
function connectScript(marker: string): string {
  return `exec 3<>/dev/tcp/127.0.0.1/${port} && printf '%s' '${marker}' >&3 && exec 3>&-`;
}

/** Wait until the listener has seen `marker` (the close may arrive just after bash exits). */
async function listenerSaw(marker: string): Promise<boolean> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (received.includes(marker)) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}

describe('network setting under bubblewrap', () => {
  it('by default a sandboxed bash reaches a listener on the host in every mode, as under Seatbelt', async () => {
    for (const mode of ['read-only', 'workspace-write', 'full-access'] as const) {
      const marker = `allowed-${mode}`;
      const run = await runWrapped(backend.wrap({ argv: ['/bin/bash', '-c', connectScript(marker)], cwd: workspace }, policy(mode)), workspace);
      expect(run, mode).toMatchObject({ code: 0, stderr: '' });
      expect(await listenerSaw(marker), mode).toBe(true);
    }
  });

  it("network 'none' makes the same connect fail inside bash, and nothing reaches the listener", async () => {
    for (const mode of ['read-only', 'workspace-write', 'full-access'] as const) {
      const marker = `refused-${mode}`;
      const run = await runWrapped(backend.wrap({ argv: ['/bin/bash', '-c', connectScript(marker)], cwd: workspace }, policy(mode, 'none')), workspace);
      expect(run.code, mode).not.toBe(0);
      expect(run.stderr, mode).toMatch(/connect: (Connection refused|Network is unreachable)/);
      expect(received).not.toContain(marker);
    }
    // Give a late connection every chance to show up before concluding none arrived.
    const probe = 'after-none';
    await runWrapped(backend.wrap({ argv: ['/bin/bash', '-c', connectScript(probe)], cwd: workspace }, policy('workspace-write')), workspace);
    expect(await listenerSaw(probe)).toBe(true);
    expect(received.filter((line) => line.startsWith('refused-'))).toEqual([]);
  });

  it("network 'none' still leaves files as the mode says: the workspace is writable in workspace-write", async () => {
    const run = await runWrapped(backend.wrap({ argv: ['/bin/bash', '-c', 'echo offline > offline.txt'], cwd: workspace }, policy('workspace-write', 'none')), workspace);
    expect(run.code).toBe(0);
    expect(await fs.readFile(path.join(workspace, 'offline.txt'), 'utf8')).toBe('offline\n');
  });

  it('renders --unshare-net exactly once for none and never for allow', async () => {
    const argumentsFor = async (network: NetworkAccess): Promise<readonly string[]> => {
      const wrapped = backend.wrap({ argv: ['true'], cwd: workspace }, policy('workspace-write', network));
      await wrapped.release();
      const end = wrapped.argv.indexOf('--');
      return wrapped.argv.slice(0, end + 1);
    };
    const none = await argumentsFor('none');
    expect(none.filter((argument) => argument === '--unshare-net')).toHaveLength(1);
    expect((await argumentsFor('allow')).filter((argument) => argument.startsWith('--') && argument.includes('net'))).toEqual([]);
    expect(none.indexOf('--unshare-net')).toBeLessThan(none.indexOf('--'));
  });

  it('a refused connect is not reported as a sandbox denial: result texts make no network claim', () => {
    for (const output of ["bash: connect: Connection refused\nbash: line 1: /dev/tcp/127.0.0.1/80: Connection refused\n", 'curl: (7) Failed to connect to example.com port 443: Network is unreachable\n']) {
      expect(detectSandboxDenial({ exitCode: 1, output })).toBeUndefined();
    }
  });
});
