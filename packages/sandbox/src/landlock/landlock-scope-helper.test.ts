import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BubblewrapBackend, createSandboxPolicy, landlockScope, SandboxUnavailableError } from '../index.js';
import { makeTempDirectory, requireBubblewrap, runWrapped } from '../bubblewrap/test-support/run-wrapped.js';
import { landlockScopeProgram } from './landlock-scope-program.js';
import { landlockScopeMissingHere } from './test-support/landlock-scope-here.js';

/**
 * The helper is an executable the sandbox runs before every command (architecture §3.7), so it is
 * what an attacker replaces: a no-op that skips Landlock, a link to their own program, a hard link
 * they can change later, a folder nobody can overwrite. Each is found before use and either
 * rewritten or refused (fail closed); the command never runs unconfined.
 */
const missing = landlockScopeMissingHere();
const backend = new BubblewrapBackend();
let root: string;
let workspace: string;
let home: string;
let openworkHome: string;
let helper: string;
let server: net.Server;
const hostAbstract = `\0openwork-test-helper-${process.pid}-${Math.random().toString(36).slice(2)}`;
const node = JSON.stringify(process.execPath);

beforeAll(async () => {
  if (missing !== undefined) return;
  await requireBubblewrap();
  root = await makeTempDirectory('ow-landlock-helper-');
  workspace = path.join(root, 'ws');
  home = path.join(root, 'home');
  openworkHome = path.join(home, '.openwork');
  await fs.mkdir(workspace, { recursive: true });
  await fs.mkdir(home, { recursive: true });
  server = net.createServer((socket) => socket.end('host daemon\n'));
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(hostAbstract, resolve));
  const scope = landlockScope(openworkHome);
  if (!scope.scoped) throw new Error(`this suite needs the Landlock scope on this machine: ${scope.reason}`);
  helper = scope.helperPath;
});

afterAll(async () => {
  if (missing !== undefined) return;
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  if (root !== undefined) await fs.rm(root, { recursive: true, force: true });
});

beforeEach(async () => {
  if (missing !== undefined) return;
  await fs.rm(path.join(openworkHome, 'helpers'), { recursive: true, force: true });
  landlockScope(openworkHome);
});

const policy = () => createSandboxPolicy({ workspaceRoots: [workspace], homeDirectory: home, openworkHome, tempRoots: [] });

async function connectHostDaemon(): Promise<string> {
  const client = `const s=require('net').connect(${JSON.stringify(hostAbstract)});s.on('data',d=>process.stdout.write('answer '+d));s.on('error',e=>console.log('refused '+e.code))`;
  const result = await runWrapped(backend.wrap({ argv: ['/bin/bash', '-c', `${node} -e ${JSON.stringify(client)}`], cwd: workspace }, policy()), workspace);
  return result.stdout;
}

async function expectGenuineHelper(): Promise<void> {
  const stat = await fs.lstat(helper);
  expect(stat.isFile()).toBe(true);
  expect(stat.mode & 0o7777).toBe(0o555);
  expect(stat.nlink).toBe(1);
  expect((await fs.readFile(helper)).equals(landlockScopeProgram().bytes)).toBe(true);
}

/** What an attacker would put there: a "helper" that runs the command without any Landlock scope. */
const noOpHelper = '#!/bin/sh\nexec "$@"\n';

describe.skipIf(missing !== undefined)(`the Landlock helper is checked before every use (architecture §3.7)${missing === undefined ? '' : ` — skipped: ${missing}`}`, () => {
  it('is written once into <openworkHome>/helpers, mode 0555, named after its hash', async () => {
    expect(path.dirname(helper)).toBe(path.join(openworkHome, 'helpers'));
    expect(path.basename(helper)).toBe(`landlock-scope-${landlockScopeProgram().sha256.slice(0, 16)}`);
    await expectGenuineHelper();
    expect(((await fs.stat(path.dirname(helper))).mode & 0o777).toString(8)).toBe('700');
  });

  it('a replaced helper (a no-op script that skips Landlock) is rewritten before the call runs', async () => {
    await fs.rm(helper);
    await fs.writeFile(helper, noOpHelper, { mode: 0o555 });
    expect(await connectHostDaemon()).toBe('refused EPERM\n');
    await expectGenuineHelper();
  });

  it('a corrupted helper (same size, one byte changed, or writable) is rewritten', async () => {
    const bytes = landlockScopeProgram().bytes;
    bytes.writeUInt8((bytes.at(-2) ?? 0) ^ 0xff, bytes.length - 2);
    await fs.chmod(helper, 0o755);
    await fs.writeFile(helper, bytes);
    expect(await connectHostDaemon()).toBe('refused EPERM\n');
    await expectGenuineHelper();
    await fs.chmod(helper, 0o755); // right bytes, wrong mode: someone could change it later
    landlockScope(openworkHome);
    await expectGenuineHelper();
  });

  it('a symbolic link or a hard link at its name is replaced, and what it pointed to is left alone', async () => {
    const planted = path.join(root, 'planted-helper');
    await fs.writeFile(planted, noOpHelper, { mode: 0o755 });
    await fs.rm(helper);
    await fs.symlink(planted, helper);
    expect(await connectHostDaemon()).toBe('refused EPERM\n');
    await expectGenuineHelper();
    // A hard link to a genuine copy the attacker can change later through the other name.
    const copy = path.join(root, 'genuine-copy');
    await fs.copyFile(helper, copy);
    await fs.chmod(copy, 0o555);
    await fs.rm(helper);
    await fs.link(copy, helper);
    landlockScope(openworkHome);
    await expectGenuineHelper();
    expect(await fs.readFile(planted, 'utf8')).toBe(noOpHelper);
  });

  it('a FIFO at its name does not hang the call', async () => {
    await fs.rm(helper);
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [helper]);
    expect(await connectHostDaemon()).toBe('refused EPERM\n');
    await expectGenuineHelper();
  });

  it('a helper that cannot be rewritten (a folder at its name) fails closed: wrap refuses with what to do, nothing runs', async () => {
    await fs.rm(helper);
    await fs.mkdir(path.join(helper, 'sub'), { recursive: true });
    const marker = path.join(workspace, 'ran');
    let caught: unknown;
    try {
      backend.wrap({ argv: ['/bin/bash', '-c', `touch ${marker}`], cwd: workspace }, policy());
    } catch (error) {
      caught = error;
    }
    expect(SandboxUnavailableError.isInstance(caught)).toBe(true);
    const reason = (caught as SandboxUnavailableError).reason;
    expect(reason).toContain(`the Landlock helper at ${helper} is not a regular file`);
    expect(reason).toContain(`Remove ${helper}`);
    await expect(fs.access(marker)).rejects.toThrow();
    await fs.rm(helper, { recursive: true });
    expect(await connectHostDaemon()).toBe('refused EPERM\n');
  });

  it('a helpers folder another user could write is refused, not trusted, even with a genuine helper in it', async () => {
    await fs.chmod(path.dirname(helper), 0o777);
    expect(() => backend.wrap({ argv: ['/bin/true'], cwd: workspace }, policy())).toThrow(
      `sandbox unavailable: the Landlock helper's folder cannot be trusted: ${path.dirname(helper)} is writable by another user. Make it a folder of yours that only you can write (chmod 700 ${path.dirname(helper)}), or remove it, then try again.`,
    );
    await fs.chmod(path.dirname(helper), 0o700);
    expect(landlockScope(openworkHome).scoped).toBe(true);
  });
});
