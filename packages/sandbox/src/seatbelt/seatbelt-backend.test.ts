import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SandboxConfigurationError,
  SandboxError,
  SandboxUnavailableError,
  SeatbeltBackend,
  SeatbeltEvaluator,
  UnavailableSandboxBackend,
  createSandboxPolicy,
} from '../index.js';

let root: string;
let ws: string;
let home: string;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ow-seatbelt-backend-')));
  ws = path.join(root, 'ws');
  home = path.join(root, 'home');
  await fs.mkdir(ws);
  await fs.mkdir(path.join(home, '.ssh'), { recursive: true });
  await fs.writeFile(path.join(home, '.ssh/id_rsa'), 'key');
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const policy = () => createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home, tempRoots: [] });

describe('availability (acceptance 10f)', () => {
  it('acc_10f UnavailableSandboxBackend reports unavailable with its reason and refuses to wrap', async () => {
    const backend = new UnavailableSandboxBackend('bwrap: setting up uid map: Permission denied');
    expect(backend.kind).toBe('unavailable');
    expect(await backend.selfCheck()).toEqual({ available: false, reason: 'bwrap: setting up uid map: Permission denied' });
    let thrown: unknown;
    try {
      backend.wrap({ argv: ['/bin/true'], cwd: ws }, policy());
    } catch (error) {
      thrown = error;
    }
    expect(SandboxUnavailableError.isInstance(thrown)).toBe(true);
    expect(SandboxError.isInstance(thrown)).toBe(true);
    expect((thrown as SandboxUnavailableError).reason).toContain('uid map');
  });

  it('acc_10f SeatbeltBackend off macOS reports unavailable with a reason and refuses to wrap', async () => {
    const backend = new SeatbeltBackend({ platform: 'linux' });
    const availability = await backend.selfCheck();
    expect(availability).toEqual({ available: false, reason: expect.stringContaining('only on macOS') });
    expect(() => backend.wrap({ argv: ['/bin/true'], cwd: ws }, policy())).toThrow(SandboxUnavailableError);
  });

  it.skipIf(process.platform === 'darwin')('acc_10f SeatbeltBackend on this non-macOS host is unavailable (runs where sandbox-exec cannot exist)', async () => {
    expect((await new SeatbeltBackend().selfCheck()).available).toBe(false);
  });

  it('SandboxError identity survives a second copy of the class (Symbol.for)', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('openwork.sandbox.error')]: true });
    expect(SandboxError.isInstance(foreign)).toBe(true);
    expect(SandboxError.isInstance(new Error('x'))).toBe(false);
  });
});

describe('SeatbeltBackend on macOS', () => {
  it.skipIf(process.platform !== 'darwin')('self-check passes (macOS only: needs /usr/bin/sandbox-exec)', async () => {
    expect(await new SeatbeltBackend().selfCheck()).toEqual({ available: true });
  });

  it.skipIf(process.platform !== 'darwin')('a wrapped bash writes the workspace, not outside it, and cannot read credentials (macOS only: needs /usr/bin/sandbox-exec)', async () => {
    const backend = new SeatbeltBackend();
    const run = (command: string): { ok: boolean; output: string } => {
      const wrapped = backend.wrap({ argv: ['/bin/bash', '-c', command], cwd: ws }, policy());
      try {
        return { ok: true, output: execFileSync(wrapped.argv[0] as string, wrapped.argv.slice(1), { cwd: ws, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
      } catch (error) {
        return { ok: false, output: String((error as { stderr?: string }).stderr ?? '') };
      }
    };
    expect(run(`echo inside > "${ws}/inside.txt"`).ok).toBe(true);
    expect(await fs.readFile(path.join(ws, 'inside.txt'), 'utf8')).toBe('inside\n');
    expect(run(`echo outside > "${root}/outside.txt"`).ok).toBe(false);
    await expect(fs.stat(path.join(root, 'outside.txt'))).rejects.toThrow();
    expect(run(`cat "${home}/.ssh/id_rsa"`).ok).toBe(false);
    expect(run(`mkdir "${ws}/.vscode"`).ok).toBe(false);
    expect(run('echo x > /dev/null').ok).toBe(true);
    expect(run('echo x > /dev/stderr').ok).toBe(true);
  });
});

describe('SeatbeltBackend self-check (driven through a stand-in for sandbox-exec)', () => {
  async function standIn(name: string, body: string): Promise<string> {
    const file = path.join(root, name);
    await fs.writeFile(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    return file;
  }

  it('runs a trivial command under profiles from the real renderer, with every statement shape wrap emits', async () => {
    const record = path.join(root, 'self-check-argv');
    const sandboxExecPath = await standIn('sandbox-exec-ok', `{ for a in "$@"; do printf '%s\\0' "$a"; done; printf 'END-OF-RUN\\0'; } >> '${record}'`);
    const backend = new SeatbeltBackend({ platform: 'darwin', sandboxExecPath });
    expect(await backend.selfCheck()).toEqual({ available: true });
    const runs = (await fs.readFile(record, 'utf8')).split('END-OF-RUN\0').slice(0, -1).map((run) => run.split('\0').slice(0, -1));
    // One profile per letter case: literal/subpath exclusions and regex-parameter exclusions.
    expect(runs).toHaveLength(2);
    const profiles: string[] = [];
    for (const argv of runs) {
      expect(argv[0]).toBe('-p');
      expect(argv.slice(-2)).toEqual(['--', '/usr/bin/true']);
      const profile = argv[1] ?? '';
      profiles.push(profile);
      const parameters: Record<string, string> = {};
      for (let index = 2; argv[index] === '-D'; index += 2) {
        const [name, ...value] = (argv[index + 1] ?? '').split('=');
        parameters[name ?? ''] = value.join('=');
      }
      // The profile it ran is one the evaluator reads with exactly the parameters passed.
      expect(() => SeatbeltEvaluator.compile(profile, parameters)).not.toThrow();
    }
    const shapes = [
      '(deny default)',
      '(allow process-exec)',
      '(require-all (subpath (param "WRITABLE_ROOT_0"))',
      '(require-not (literal (param "READ_ONLY',
      '(require-not (subpath (param',
      '(require-not (literal (param "PROTECTED_PARENT',
      '(require-not (regex (param "READ_ONLY_PATTERN',
      '(require-not (regex (param "PROTECTED_PARENT_PATTERN',
      'READABLE_GRANT_0',
      'WRITABLE_GRANT_0',
      '(allow file-write-data (require-all (require-any (literal (param "DEVICE_0"))',
      '(vnode-type CHARACTER-DEVICE)',
      '(allow file-ioctl',
      '(extension "com.apple.sandbox.pty")',
      '(regex (param "HERE_DOCUMENT_0"))',
      '(allow network-inbound network-bind)',
      '(allow network-outbound (require-not (remote unix-socket)))',
      '(allow sysctl-read (sysctl-name',
      '(ipc-posix-name-regex #"',
    ];
    for (const shape of shapes) expect(profiles.join('\n'), shape).toContain(shape);
    // And the backend still wraps afterwards.
    expect(backend.wrap({ argv: ['/bin/bash', '-c', 'true'], cwd: ws }, policy()).argv[0]).toBe(sandboxExecPath);
  });

  it('a failing self-check reports the runner error and makes wrap refuse, like bubblewrap (10d)', async () => {
    const sandboxExecPath = await standIn('sandbox-exec-broken', "echo 'sandbox-exec: profile syntax error' >&2; exit 65");
    const backend = new SeatbeltBackend({ platform: 'darwin', sandboxExecPath });
    const availability = await backend.selfCheck();
    expect(availability).toEqual({ available: false, reason: expect.stringContaining('profile syntax error') });
    expect(() => backend.wrap({ argv: ['/bin/bash', '-c', 'true'], cwd: ws }, policy())).toThrow(SandboxUnavailableError);
  });

  it('a relative sandbox-exec path is a configuration error', () => {
    expect(() => new SeatbeltBackend({ sandboxExecPath: 'sandbox-exec' })).toThrow(SandboxConfigurationError);
  });
});

describe('SeatbeltBackend.wrap', () => {
  it('derives the profile from the policy of this call and never spawns', async () => {
    const backend = new SeatbeltBackend({ platform: 'darwin' });
    const wrapped = backend.wrap({ argv: ['/bin/bash', '-c', 'true'], cwd: ws }, policy());
    expect(wrapped.argv[0]).toBe('/usr/bin/sandbox-exec');
    expect(wrapped.argv).toContain(`WRITABLE_ROOT_0=${ws}`);
    expect(wrapped.argv.slice(-3)).toEqual(['/bin/bash', '-c', 'true']);
    await wrapped.release();
  });

  it('renders the network setting of the policy, and here-documents in the temp roots and /var/tmp', () => {
    const backend = new SeatbeltBackend({ platform: 'darwin' });
    const temp = path.join(root, 'tmp');
    const run = (network: 'allow' | 'none') =>
      backend.wrap({ argv: ['/bin/bash', '-c', 'true'], cwd: ws }, createSandboxPolicy({ mode: 'read-only', workspaceRoots: [ws], homeDirectory: home, tempRoots: [temp], network })).argv;
    const profileOf = (argv: readonly string[]): string => argv[2] ?? '';
    expect(profileOf(run('allow'))).toContain('(allow network-inbound network-bind)');
    expect(profileOf(run('none'))).not.toMatch(/network/);
    const definitions = run('none').filter((argument) => argument.startsWith('HERE_DOCUMENT_'));
    expect(definitions).toEqual([`HERE_DOCUMENT_0=^${temp.replace(/[.]/g, '\\.')}/sh-thd-[^/]+$`, 'HERE_DOCUMENT_1=^/private/var/tmp/sh-thd-[^/]+$']);
  });
});
