import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ToolResult } from '@openwork/tools-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSourcesForChild } from '../test-support/compile-sources-for-child.js';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';

/**
 * Host process files (architecture §3.8, docs/decisions/0095-file-tools-deny-process-secrets.md):
 * the file tools run in the openwork process, whose environment holds what bash never gets, and
 * may name any other process of the user. A real multi-line secret sits in this process's
 * environment and in a child host process's environment and arguments; no spelling of the
 * entries that hold it is readable, listable or searchable, while the useful `/proc` files stay so.
 */
const ownLines = ['-----BEGIN OWN DEPLOY KEY-----', 'OWNSECRETLINE1x7Q', 'OWNSECRETLINE2k9Z', '-----END OWN DEPLOY KEY-----'];
const childLines = ['-----BEGIN CHILD DEPLOY KEY-----', 'CHILDSECRETLINE1p4W', 'CHILDSECRETLINE2m8R', '-----END CHILD DEPLOY KEY-----'];
const argumentSecret = 'ARGSECRETv5T';
const markers = [...ownLines.slice(1, 3), ...childLines.slice(1, 3), argumentSecret];

let fixture: BuiltinsFixture;
let child: ChildProcess;
let pid: number;
let previous: string | undefined;

beforeAll(async () => {
  previous = process.env['OW_TEST_DEPLOY_KEY'];
  process.env['OW_TEST_DEPLOY_KEY'] = ownLines.join('\n');
  fixture = await createFixture();
  child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', `--token=${argumentSecret}`], {
    env: { PATH: '/usr/bin:/bin', DEPLOY_KEY: childLines.join('\n') },
    stdio: 'ignore',
  });
  pid = child.pid!;
  // The child is ours and alive: its environment is readable to this process (what the tools must refuse).
  for (let attempt = 0; !(await readFile(`/proc/${pid}/environ`, 'utf8')).includes(childLines[1]!); attempt += 1) {
    if (attempt > 200) throw new Error('the child process never showed its environment');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
});

afterAll(async () => {
  if (previous === undefined) delete process.env['OW_TEST_DEPLOY_KEY'];
  else process.env['OW_TEST_DEPLOY_KEY'] = previous;
  child?.kill('SIGKILL');
  await fixture?.cleanup();
});

function expectNoSecret(text: string, what: string): void {
  for (const marker of markers) expect(text, `${what} shows ${marker}`).not.toContain(marker);
}

describe('process secrets in procfs are credentials for the file tools', () => {
  it('read refuses every spelling of environ, cmdline, mem, auxv, maps, fd … with the credential retry hint', async () => {
    const tid = pid; // a single-threaded task id is the process id; Node's main thread too
    const paths = [
      '/proc/self/environ',
      '/proc/thread-self/environ',
      `/proc/${process.pid}/environ`,
      `/proc/self/task/${process.pid}/environ`,
      '/proc//self/./environ',
      '/proc/self/cmdline',
      `/proc/${pid}/environ`,
      `/proc/${pid}/task/${tid}/environ`,
      `/proc/${pid}/cmdline`,
      `/proc/${pid}/mem`,
      `/proc/${pid}/auxv`,
      `/proc/${pid}/maps`,
      `/proc/${pid}/smaps`,
      `/proc/${pid}/pagemap`,
      `/proc/${pid}/stack`,
      `/proc/${pid}/syscall`,
      `/proc/${pid}/fd`,
      `/proc/${pid}/task/${tid}/maps`,
      `/proc/${pid}/../${pid}/environ`,
    ];
    for (const path of paths) {
      // Line 2 on: environ's first line holds a NUL, the next ones are the secret's own lines.
      const result = await fixture.call('read', { path, offset: 2 });
      const text = ToolResult.text(result);
      expect(result.status, `read ${path}: ${text}`).toBe('denied');
      expect(text, path).toContain('process secret');
      expect(text, path).toContain('sandboxPermissions');
      expectNoSecret(text, `read ${path}`);
    }
  });

  it('links to them are refused too: a symbolic link in the workspace, /dev/fd/N of an open descriptor', async () => {
    await symlink(`/proc/${pid}/environ`, `${fixture.workspace}/innocent.txt`);
    await symlink('/proc/self', `${fixture.workspace}/me`);
    const descriptor = openSync(`/proc/${pid}/environ`, 'r');
    try {
      for (const path of ['innocent.txt', 'me/environ', `/dev/fd/${descriptor}`, `/proc/self/fd/${descriptor}`]) {
        const result = await fixture.call('read', { path, offset: 2 });
        expect(result.status, `read ${path}`).toBe('denied');
        expectNoSecret(ToolResult.text(result), `read ${path}`);
      }
    } finally {
      closeSync(descriptor);
    }
  });

  it('grep, glob and list neither show nor search them', async () => {
    const grep = await fixture.call('grep', { pattern: 'SECRETLINE|ARGSECRET', path: `/proc/${pid}`, glob: '**' });
    expectNoSecret(ToolResult.text(grep), 'grep of the process folder');
    const grepFile = await fixture.call('grep', { pattern: 'SECRETLINE', path: '/proc/self/environ' });
    expect(grepFile.status).toBe('denied');
    expectNoSecret(ToolResult.text(grepFile), 'grep of environ');
    const glob = ToolResult.text(await fixture.call('glob', { pattern: '**/environ', path: `/proc/${pid}` }));
    expect(glob).toMatch(/^No files match/);
    expect((await fixture.call('list', { path: `/proc/${pid}/fd` })).status).toBe('denied');
    expect((await fixture.call('list', { path: `/proc/${pid}/task/${pid}/fdinfo` })).status).toBe('denied');
  });

  it('the useful procfs files stay readable: cpuinfo, meminfo, a process status, the mount table', async () => {
    for (const path of ['/proc/cpuinfo', '/proc/meminfo', '/proc/loadavg', `/proc/${pid}/status`, '/proc/self/mountinfo']) {
      const result = await fixture.call('read', { path });
      expect(result.status, `read ${path}: ${ToolResult.text(result)}`).toBe('succeeded');
    }
    expect(await fixture.text('list', { path: `/proc/${pid}` })).toContain('status');
  });

  it('a grant naming the entry reopens it for that call, as for a credential; a grant on /proc does not', async () => {
    const path = `/proc/${pid}/environ`;
    const granted = await fixture.call('read', { path, offset: 2, limit: 2 }, { grants: [{ path, access: 'read', scope: 'exact' }] });
    expect(granted.status, ToolResult.text(granted)).toBe('succeeded');
    expect(ToolResult.text(granted)).toContain(childLines[1]);
    const wide = await fixture.call('read', { path, offset: 2 }, { grants: [{ path: '/proc', access: 'read', scope: 'subtree' }] });
    expect(wide.status).toBe('denied');
  });
});

/**
 * The openwork process itself, as the outside attack met it: a host process that got the secret in
 * its environment when it started (which this test process cannot be) reads its own
 * `/proc/self/environ` and `/proc/thread-self/environ` through the read tool.
 */
const hostScript = `
import { mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { UnavailableSandboxBackend } from '@openwork/sandbox';
import { NodeFileSystem } from '@openwork/fs-backend';
import { NodeProcessBackend } from '@openwork/process-backend';
import { ToolSessionContext, finalizeBuiltinToolset, sessionSandboxPolicy } from './index.js';

const root = await realpath(process.argv[2]);
const workspace = join(root, 'workspace');
const home = join(root, 'home');
await mkdir(workspace);
await mkdir(home);
const session = new ToolSessionContext({
  workingDirectory: workspace, homeDirectory: home, sandbox: new UnavailableSandboxBackend('test'),
  environment: {}, filesystem: new NodeFileSystem(), processBackend: new NodeProcessBackend(),
});
const toolset = await finalizeBuiltinToolset(session, { escalationAvailable: true });
const sandboxPolicy = sessionSandboxPolicy(session, { tempRoots: [] });
const results = [];
for (const path of ['/proc/self/environ', '/proc/thread-self/environ', '/dev/fd/../environ']) {
  for (const offset of [1, 2, 3]) {
    const result = await toolset.call('read', { path, offset }, { callId: path + offset, signal: new AbortController().signal, sandboxPolicy });
    results.push({ path, status: result.status, text: result.content.map((part) => part.text ?? '').join('\\n') });
  }
}
console.log(JSON.stringify(results));
`;

describe('the host process reading its own environment', () => {
  it('a real multi-line secret in the environment the process started with is not shown by any line', async () => {
    const build = await compileSourcesForChild();
    const root = await mkdtemp(join(tmpdir(), 'ow-process-secrets-'));
    try {
      await writeFile(join(build, 'process-secrets-host.js'), hostScript);
      const { stdout } = await promisify(execFile)(process.execPath, [join(build, 'process-secrets-host.js'), root], {
        env: { PATH: '/usr/bin:/bin', DEPLOY_KEY: ownLines.join('\n') },
      });
      const results = JSON.parse(stdout) as { path: string; status: string; text: string }[];
      for (const result of results.filter((entry) => entry.path !== '/dev/fd/../environ')) {
        expect(result.status, `${result.path}: ${result.text}`).toBe('denied');
        expectNoSecret(result.text, result.path);
      }
      // /dev/fd/.. is /proc/self: the same file by a third spelling.
      for (const result of results.filter((entry) => entry.path === '/dev/fd/../environ')) expectNoSecret(result.text, result.path);
    } finally {
      await rm(build, { recursive: true, force: true });
      await rm(root, { recursive: true, force: true });
    }
  });
});
