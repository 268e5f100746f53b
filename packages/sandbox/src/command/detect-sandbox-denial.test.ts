import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectRunnerFailure, detectSandboxDenial, formatDenialMarker } from '../index.js';
import type { SandboxedCommandOutcome } from '../index.js';

const bwrap = '/usr/bin/bwrap';
const readOnlySystem = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];

/** Runs a program and returns its real exit code and merged output, as the bash tool would see them. */
function run(file: string, argv: readonly string[]): Promise<SandboxedCommandOutcome & { spawnError?: string }> {
  return new Promise((resolve) => {
    // A hermetic environment: a scratch HOME (never the real one) and the C locale, so the kernel
    // messages are the English ones the detector reads.
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: os.tmpdir(), LANG: 'C', LC_ALL: 'C' };
    const child = execFile(file, argv, { encoding: 'utf8', timeout: 15_000, env }, () => undefined);
    let output = '';
    child.stdout?.on('data', (chunk: string) => (output += chunk));
    child.stderr?.on('data', (chunk: string) => (output += chunk));
    child.on('error', (error: NodeJS.ErrnoException) => resolve({ exitCode: null, output, runnerFailed: true, spawnError: error.code }));
    child.on('close', (code) => resolve({ exitCode: code, output }));
  });
}

function sandboxed(command: string, extraArguments: readonly string[] = []) {
  return run(bwrap, [...readOnlySystem, ...extraArguments, '--', '/bin/bash', '-c', command]);
}

describe.skipIf(process.platform !== 'linux')('denial detection against real bubblewrap runs', () => {
  let directory: string;

  beforeAll(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'ow-denial-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('acc_10e kernel denials are recognised', async () => {
    const target = path.join(directory, 'x');
    const cases: Array<{ command: string; paths: string[]; extra?: string[] }> = [
      { command: `touch ${target}`, paths: [target] },
      { command: `echo hi > ${target}`, paths: [target] },
      { command: `mkdir ${target}`, paths: [target] },
      { command: `git init -q ${path.join(directory, 'repo')}`, paths: [path.join(directory, 'repo')] },
      { command: `node -e "require('fs').writeFileSync('${target}', 'a')"`, paths: [target] },
      { command: `python3 -c "open('${target}', 'w')"`, paths: [target] },
      { command: `cd ${directory} && touch relative-name`, paths: ['relative-name'] },
    ];
    for (const testCase of cases) {
      const outcome = await sandboxed(testCase.command, testCase.extra);
      expect(outcome.exitCode, outcome.output).not.toBe(0);
      const denial = detectSandboxDenial(outcome);
      expect(denial, `${testCase.command}\n${outcome.output}`).toBeDefined();
      expect(denial?.paths.map((denied) => denied.path)).toEqual(testCase.paths);
      expect(denial?.paths.every((denied) => denied.access === 'write')).toBe(true);
      expect(detectRunnerFailure(outcome)).toBeUndefined();
    }
  }, 60_000);

  it('acc_10e git in a repository whose .git is read-only is a denial naming index.lock', async () => {
    const repository = path.join(directory, 'readonly-repo');
    await mkdir(repository);
    const init = await run('git', ['init', '-q', repository]);
    expect(init.exitCode).toBe(0);
    await writeFile(path.join(repository, 'file.txt'), 'content\n');
    const outcome = await sandboxed(`git -C ${repository} add file.txt`);
    const denial = detectSandboxDenial(outcome);
    expect(denial?.lines).toEqual([`fatal: Unable to create '${repository}/.git/index.lock': Read-only file system`]);
    expect(denial?.paths).toEqual([{ path: `${repository}/.git/index.lock`, access: 'write' }]);
  }, 30_000);

  it('acc_10e a masked credential file is a read denial', async () => {
    const secret = path.join(directory, 'netrc');
    await writeFile(secret, 'machine example.com password hunter2\n');
    const outcome = await sandboxed(`cat ${secret}`, ['--ro-bind', '/dev/null', secret]);
    expect(outcome.output).not.toContain('hunter2');
    expect(detectSandboxDenial(outcome)?.paths).toEqual([{ path: secret, access: 'read' }]);
  }, 30_000);

  it('acc_10e only paths the policy denies count when the caller passes the policy', async () => {
    const outcome = await sandboxed(`touch ${path.join(directory, 'x')}`);
    expect(detectSandboxDenial({ ...outcome, isPathDenied: () => false })).toBeUndefined();
    expect(detectSandboxDenial({ ...outcome, isPathDenied: (candidate) => candidate.startsWith(directory) })?.paths).toHaveLength(1);
  }, 30_000);

  it('acc_10e renaming over a protected mount point (EBUSY) is a denial only for a path the policy denies', async () => {
    const repository = path.join(directory, 'busy-repo');
    await mkdir(repository);
    expect((await run('git', ['init', '-q', repository])).exitCode).toBe(0);
    const config = path.join(repository, '.git', 'config');
    // What bubblewrap does to a protected .git/config: bind it read-only onto itself.
    const outcome = await sandboxed(`cd ${repository} && git config core.hooksPath /tmp/hooks`, ['--bind', repository, repository, '--ro-bind', config, config]);
    expect(outcome.output).toBe('error: could not write config file .git/config: Device or resource busy\n');
    const policyDenies = (candidate: string): boolean => path.resolve(repository, candidate) === config;
    const denial = detectSandboxDenial({ ...outcome, isPathDenied: policyDenies });
    expect(denial).toEqual({ lines: ['error: could not write config file .git/config: Device or resource busy'], paths: [{ path: '.git/config', access: 'write' }] });
    // Without the policy, or for a path it allows, EBUSY is an everyday error.
    expect(detectSandboxDenial(outcome)).toBeUndefined();
    expect(detectSandboxDenial({ ...outcome, isPathDenied: () => false })).toBeUndefined();
    for (const output of [
      "Error: EBUSY: resource busy or locked, rename '/ws/.git/config.lock' -> '/ws/.git/config'",
      "OSError: [Errno 16] Device or resource busy: '/ws/.git/config'",
      'rename /ws/.git/config.tmp /ws/.git/config: device or resource busy',
      "mv: cannot move '/ws/.git' to '/ws/.git-old': Device or resource busy",
    ]) {
      const found = detectSandboxDenial({ exitCode: 1, output, isPathDenied: (candidate) => candidate.startsWith('/ws/.git') });
      expect(found?.paths.some((denied) => denied.path.startsWith('/ws/.git') && denied.access === 'write'), output).toBe(true);
      expect(detectSandboxDenial({ exitCode: 1, output }), output).toBeUndefined();
    }
    expect(detectSandboxDenial({ exitCode: 1, output: 'umount: /mnt: target is busy\nDevice or resource busy (os error 16)\n', isPathDenied: () => true })).toBeUndefined();
  }, 30_000);

  it('acc_10e a runner failure is unavailable not denied', async () => {
    const failures = [
      await run(bwrap, ['--bogus-flag', 'true']),
      await run(bwrap, [...readOnlySystem, '/nonexistent-binary-for-openwork']),
      await run(bwrap, [...readOnlySystem, '--ro-bind', path.join(directory, 'missing-source'), '/mnt', 'true']),
      // A runner without the capability to create namespaces: the kernel words are bwrap's own.
      await run(bwrap, [...readOnlySystem, '--cap-drop', 'ALL', bwrap, ...readOnlySystem, 'true']),
      await run(path.join(directory, 'no-such-bwrap'), ['true']),
    ];
    expect(failures[0]?.output).toContain('bwrap: Unknown option --bogus-flag');
    expect(failures[3]?.output).toMatch(/^bwrap: .*Operation not permitted/m);
    expect(failures[4]?.spawnError).toBe('ENOENT');
    for (const outcome of failures) {
      expect(outcome.exitCode, outcome.output).not.toBe(0);
      expect(detectRunnerFailure(outcome), outcome.output).toBeDefined();
      expect(detectSandboxDenial(outcome), outcome.output).toBeUndefined();
    }
    // Messages peers met under AppArmor and containers, and Seatbelt's own failure.
    for (const output of [
      'bwrap: setting up uid map: Permission denied\n',
      'bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces.\n',
      'bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted\n',
      'sandbox-exec: sandbox_apply: Operation not permitted\n',
    ]) {
      const outcome = { exitCode: 1, output };
      expect(detectRunnerFailure(outcome)?.line).toBe(output.trim());
      expect(detectSandboxDenial(outcome)).toBeUndefined();
    }
  }, 60_000);
});

describe('denial detection', () => {
  it('no false positives on ordinary output', async () => {
    const echoed = await run('/bin/bash', ['-c', 'echo sandbox denied; echo "access denied by policy"']);
    expect(echoed.exitCode).toBe(0);
    expect(detectSandboxDenial(echoed)).toBeUndefined();

    // grep finds the words in a file and exits 0: not a denial.
    const grep = await run('/bin/bash', ['-c', 'printf "touch: cannot touch \'/x\': Permission denied\\n" | grep "Permission denied"']);
    expect(grep.exitCode).toBe(0);
    expect(detectSandboxDenial(grep)).toBeUndefined();

    const ordinaryFailures = [
      '✗ rejects writes outside the workspace (denied)\nTests: 1 failed, 12 passed\n',
      'Error: expected "Permission denied" to be thrown\n    at test.js:10:5\n',
      'sandbox: request denied by the sandbox\n',
      'The sandbox denied nothing; Read-only file system tests failed.\n',
      'error: permission denied\n',
      'FAIL src/write.test.ts > reports Operation not permitted\n',
      'npm ERR! code E404\nnpm ERR! 404 Not Found\n',
    ];
    for (const output of ordinaryFailures) expect(detectSandboxDenial({ exitCode: 1, output }), output).toBeUndefined();

    // A real kernel message with a zero exit (the program recovered) is not a denial either.
    expect(detectSandboxDenial({ exitCode: 0, output: "touch: cannot touch '/ws/x': Read-only file system\n" })).toBeUndefined();
    expect(detectRunnerFailure({ exitCode: 1, output: 'make: *** [all] Error 1\n' })).toBeUndefined();
    expect(detectRunnerFailure({ exitCode: 0, output: 'bwrap: a message from a program that succeeded\n' })).toBeUndefined();
    // The command ran and printed a `bwrap:` line itself, then more: its own failure, not the runner's.
    expect(detectRunnerFailure({ exitCode: 1, output: 'bwrap: nested sandbox says hello\nbuild failed: 3 errors\n' })).toBeUndefined();
  });

  it('recognises the forms other runtimes print', () => {
    const outputs: Array<[string, string[]]> = [
      ["Error: EACCES: permission denied, open '/ws/.envrc'", ['/ws/.envrc']],
      ["Error: EPERM: operation not permitted, rename '/ws/a' -> '/home/u/.bashrc'", ['/ws/a', '/home/u/.bashrc']],
      ["PermissionError: [Errno 13] Permission denied: '/home/u/.ssh/id_ed25519'", ['/home/u/.ssh/id_ed25519']],
      ['go: creating work dir: mkdir /ro/go-build123: read-only file system', ['/ro/go-build123']],
      ['java.io.FileNotFoundException: /ro/out.txt (Read-only file system)', ['/ro/out.txt']],
      ["mv: cannot move 'a' to '/ro/b': Read-only file system", ['a', '/ro/b']],
      [
        "fatal: cannot copy '/usr/share/git-core/templates/hooks/pre-commit.sample' to '/ws/.git/hooks/pre-commit.sample': Read-only file system",
        ['/ws/.git/hooks/pre-commit.sample'],
      ],
      ["cp: cannot create regular file '/ro/b': Read-only file system", ['/ro/b']],
      ['error: could not lock config file .git/config: Read-only file system', ['.git/config']],
      ['Error: Read-only file system (os error 30)', []],
    ];
    for (const [output, paths] of outputs) {
      const denial = detectSandboxDenial({ exitCode: 1, output: `some context\n${output}\nmore\n` });
      expect(denial?.lines, output).toEqual([output]);
      expect(denial?.paths.map((denied) => denied.path)).toEqual(paths);
    }
  });
});

describe('formatDenialMarker', () => {
  it('acc_10e the marker quotes the kernel message and gives the retry hint with the path', () => {
    const marker = formatDenialMarker(
      { lines: ["touch: cannot touch 'x': Read-only file system"], paths: [{ path: 'x', access: 'write' }] },
      { workingDirectory: '/ws/project' },
    );
    expect(marker).toBe(
      "[sandbox denied: touch: cannot touch 'x': Read-only file system. To get access, call bash again with sandboxPermissions " +
        '{"paths":[{"path":"/ws/project/x","access":"write","scope":"exact"}]} and a one-line justification; the user will be asked.]',
    );
  });

  it('without a path it asks for the denied path, and it bounds long output', () => {
    const lines = Array.from({ length: 5 }, (_, index) => `Error: Read-only file system (os error 30) #${index}`);
    const marker = formatDenialMarker({ lines, paths: [] });
    expect(marker).toContain('(+2 more)');
    expect(marker).toContain('{"paths":[{"path":"<the denied path>","access":"write","scope":"exact"}]}');
    expect(marker.split('\n')).toHaveLength(1);
  });

  it('names paths no grant can open as protected, and asks only for the others', () => {
    const denial = {
      lines: ['bash: line 1: /home/u/.openwork/spill/s/c.txt: Read-only file system', "touch: cannot touch '/home/u/.bashrc': Read-only file system"],
      paths: [
        { path: '/home/u/.openwork/spill/s/c.txt', access: 'write' as const },
        { path: '/home/u/.bashrc', access: 'write' as const },
      ],
    };
    const canBeGranted = (candidate: string): boolean => !candidate.startsWith('/home/u/.openwork/');
    expect(formatDenialMarker(denial, { canBeGranted })).toBe(
      '[sandbox denied: bash: line 1: /home/u/.openwork/spill/s/c.txt: Read-only file system | ' +
        "touch: cannot touch '/home/u/.bashrc': Read-only file system. /home/u/.openwork/spill/s/c.txt is protected and cannot be changed by tools. " +
        'To get access to the other paths, call bash again with sandboxPermissions {"paths":[{"path":"/home/u/.bashrc","access":"write","scope":"exact"}]} ' +
        'and a one-line justification; the user will be asked.]',
    );
    // Only protected paths: no retry hint at all, since no grant can help.
    const onlyProtected = formatDenialMarker({ lines: denial.lines.slice(0, 1), paths: denial.paths.slice(0, 1) }, { canBeGranted });
    expect(onlyProtected).toBe(
      '[sandbox denied: bash: line 1: /home/u/.openwork/spill/s/c.txt: Read-only file system. /home/u/.openwork/spill/s/c.txt is protected and cannot be changed by tools.]',
    );
    expect(onlyProtected).not.toContain('sandboxPermissions');
  });

  it("npm's ENOENT for a folder it may not make counts only for a path the policy denies", () => {
    const output = "npm error code ENOENT\nnpm error syscall mkdir\nnpm error path /home/u/.npm/_cacache\nnpm error errno -2\nnpm error enoent ENOENT: no such file or directory, mkdir '/home/u/.npm/_cacache'\n";
    const denied = detectSandboxDenial({ exitCode: 254, output, isPathDenied: (path, access) => path.startsWith('/home/u/') && access === 'write' });
    expect(denied?.paths).toEqual([{ path: '/home/u/.npm/_cacache', access: 'write' }]);
    expect(denied?.lines).toEqual(["npm error enoent ENOENT: no such file or directory, mkdir '/home/u/.npm/_cacache'"]);
    // An allowed path, or no policy to ask: a missing folder is only that.
    expect(detectSandboxDenial({ exitCode: 254, output, isPathDenied: () => false })).toBeUndefined();
    expect(detectSandboxDenial({ exitCode: 254, output })).toBeUndefined();
    // Reading a missing file is never a denial, even where writing is denied.
    expect(detectSandboxDenial({ exitCode: 1, output: "Error: ENOENT: no such file or directory, open '/home/u/.config/app.json'\n", isPathDenied: () => true })).toBeUndefined();
  });
});
