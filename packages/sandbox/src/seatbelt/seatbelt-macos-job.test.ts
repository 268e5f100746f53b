import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeatbeltBackend, createSandboxPolicy, type CreateSandboxPolicyOptions } from '../index.js';

/**
 * The macOS job (README "macOS job"): ordinary commands and attacks under the real
 * `sandbox-exec`. They need macOS; elsewhere every test here is skipped with this reason. None of
 * them has run yet — the README says so until a Mac has run this file.
 */
const onMac = process.platform === 'darwin';
const reason = onMac ? '' : ` — SKIPPED: needs macOS /usr/bin/sandbox-exec, this is ${process.platform}`;

let root: string;
let ws: string;
let home: string;
let temp: string;
let server: net.Server | undefined;
let port = 0;
const received: string[] = [];

beforeAll(async () => {
  if (!onMac) return;
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ow-macos-job-')));
  ws = path.join(root, 'ws');
  home = path.join(root, 'home');
  temp = path.join(root, 'tmp');
  for (const directory of [ws, temp, path.join(home, '.ssh'), path.join(home, '.config/gh')]) await fs.mkdir(directory, { recursive: true });
  await fs.writeFile(path.join(home, '.ssh/id_ed25519'), 'PRIVATE KEY\n');
  await fs.writeFile(path.join(home, '.config/gh/hosts.yml'), 'oauth_token: secret\n');
  spawnSync('git', ['init', '-q', ws]);
  await fs.writeFile(path.join(ws, '.git/hooks/pre-commit'), '#!/bin/sh\n');
  server = net.createServer((socket) => socket.setEncoding('utf8').on('data', (chunk: string) => received.push(chunk)));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  if (server !== undefined) await new Promise<void>((resolve) => server?.close(() => resolve()));
  if (root !== undefined) await fs.rm(root, { recursive: true, force: true });
});

function run(script: string, options: Partial<CreateSandboxPolicyOptions> = {}) {
  const backend = new SeatbeltBackend();
  const policy = createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home, tempRoots: [temp], ...options });
  const wrapped = backend.wrap({ argv: ['/bin/bash', '-c', script], cwd: ws }, policy);
  const [file, ...args] = wrapped.argv as [string, ...string[]];
  const result = spawnSync(file, args, { cwd: ws, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: ws, TMPDIR: temp, LANG: 'C' }, timeout: 30_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe.skipIf(!onMac)(`macOS job: real sandbox-exec${reason}`, () => {
  it('the self-check passes with every statement shape', async () => {
    expect(await new SeatbeltBackend().selfCheck()).toEqual({ available: true });
  });

  it('ordinary commands run: echo, ls, git status, node -v, python3 -c 1', () => {
    for (const command of ['echo hi', 'ls -la', 'git status', `'${process.execPath}' -v`, 'python3 -c 1']) {
      expect(run(command), command).toMatchObject({ code: 0 });
    }
  });

  it('network: allowed by default (a local listener receives), refused with none', async () => {
    expect(run(`exec 3<>/dev/tcp/127.0.0.1/${port} && printf allowed >&3`).code).toBe(0);
    const none = run(`exec 3<>/dev/tcp/127.0.0.1/${port} && printf refused >&3`, { network: 'none' });
    expect(none.code).not.toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received).toContain('allowed');
    expect(received).not.toContain('refused');
  });

  it('moves: mv .git .g and mv ~/.config ~/.cfg are refused; hooks and credentials stay as they were', async () => {
    expect(run('mv .git .g').code).not.toBe(0);
    expect(run(`mv ${ws} ${temp}/ws-old`).code).not.toBe(0);
    const fullAccess = run(`mv ${home}/.config ${home}/.cfg; cat ${home}/.cfg/gh/hosts.yml`, { mode: 'full-access' });
    expect(fullAccess.stdout).not.toContain('secret');
    expect(await fs.readFile(path.join(ws, '.git/hooks/pre-commit'), 'utf8')).toBe('#!/bin/sh\n');
    expect(run('mkdir src && mv src lib && rmdir lib').code).toBe(0);
  });

  it('letter case: .VSCODE, .GIT/config and ~/.SSH are protected under every spelling', () => {
    expect(run('mkdir .VSCODE').code).not.toBe(0);
    expect(run('echo x > .GIT/config').code).not.toBe(0);
    expect(run(`cat ${home}/.SSH/id_ed25519`).stdout).not.toContain('PRIVATE');
  });

  it('hard links and firmlink spellings do not reach a credential', () => {
    const linked = run(`ln ${home}/.ssh/id_ed25519 ${ws}/k; cat ${ws}/k`);
    expect(linked.stdout).not.toContain('PRIVATE');
    expect(run(`cat /System/Volumes/Data${home}/.ssh/id_ed25519`).stdout).not.toContain('PRIVATE');
  });

  it('PTYs, /dev/fd and here-documents (read-only mode) work; setuid ps is refused', () => {
    expect(run('script -q /dev/null echo pty-ok').stdout).toContain('pty-ok');
    expect(run(`python3 -c 'import pty, os; pid, fd = pty.fork(); print("child") if pid == 0 else print(os.read(fd, 100))'`).code).toBe(0);
    expect(run('echo hi | tee >(cat >/dev/null) >/dev/null && exec 3>/dev/null && echo x > /dev/fd/3').code).toBe(0);
    expect(run('cat <<EOF\nheredoc-ok\nEOF', { mode: 'read-only' }).stdout).toBe('heredoc-ok\n');
    expect(run('ps -p $$').code).not.toBe(0);
  });

  it('preferences and libomp shared memory: defaults read works', () => {
    expect(run('defaults read -g AppleLocale || defaults read NSGlobalDomain >/dev/null').code).toBe(0);
  });
});
