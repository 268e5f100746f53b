import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDirectory, requireBubblewrap } from '../bubblewrap/test-support/run-wrapped.js';
import { installStageMountHelper, stageMountHelperPath } from './install-stage-mount-helper.js';
import { runStagedSelfCheck } from './run-staged-self-check.js';
import { SandboxUnavailableError } from '../backend/sandbox-unavailable-error.js';
import {
  STAGE_ARGUMENTS_MALFORMED_MESSAGE,
  STAGE_CAPABILITIES_FAILED_MESSAGE,
  STAGE_CHDIR_FAILED_MESSAGE,
  STAGE_EXEC_FAILED_MESSAGE,
  STAGE_MOUNT_FAILED_MESSAGE,
  STAGE_UNSHARE_FAILED_MESSAGE,
  stageFailureLine,
} from './stage-mount-listing.js';
import { stageMountProgram } from './stage-mount-program.js';
import { stagedCommand } from './staged-command.js';
import type { StageMount } from './staged-command.js';

/**
 * The helper on the real kernel, through the real bwrap, the way the renderer will run it: the
 * workspace bound read-only, a staging folder bound at `/dev/.openwork-stage`, the helper mounting
 * an overlay of the workspace whose upper layer is in the staging folder, then hiding the staging
 * folder. Once as the test runner (root in CI: bwrap makes no user namespace) and once as an
 * ordinary user (bwrap puts the command in a nested user namespace, which is why the helper
 * unshares its own mount namespace).
 */
const stage = '/dev/.openwork-stage';
const ENOENT = 2;
const EPERM = 1;
const EINVAL = 22;

interface Runner {
  readonly name: string;
  /** Who runs bwrap: every folder of a case belongs to them (overlayfs copies up as them). */
  readonly uid: number;
  readonly gid: number;
  /** Put before `bwrap` to run it as that user. */
  readonly prefix: readonly string[];
  /** Why this runner cannot be tried here, or undefined. */
  readonly missing?: string;
}

function idOf(flag: '-u' | '-g', user: string): number | undefined {
  try {
    return Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
  } catch {
    return undefined;
  }
}

const selfUid = process.getuid?.() ?? -1;
const selfGid = process.getgid?.() ?? -1;
const nobodyUid = idOf('-u', 'nobody');
const nobodyGid = idOf('-g', 'nobody');
const runners: readonly Runner[] = [
  { name: selfUid === 0 ? 'as root (the test runner)' : 'as the test runner', uid: selfUid, gid: selfGid, prefix: [] },
  {
    name: 'as an ordinary user (nobody, through runuser)',
    uid: nobodyUid ?? -1,
    gid: nobodyGid ?? -1,
    prefix: ['runuser', '-u', 'nobody', '--'],
    missing:
      selfUid !== 0
        ? 'the test runner is not root, so it cannot run bwrap as another user (its own run above is the ordinary-user case)'
        : nobodyUid === undefined || nobodyGid === undefined
          ? 'this machine has no user "nobody"'
          : undefined,
  },
];

let home: string;
let installed: string;

beforeAll(async () => {
  await requireBubblewrap();
  home = await makeTempDirectory('ow-stage-home-');
  installed = installStageMountHelper(path.join(home, '.openwork'));
});

afterAll(async () => {
  if (home !== undefined) await fs.rm(home, { recursive: true, force: true });
});

/** Every folder under `root` made searchable and writable by its owner, then the tree removed (overlayfs leaves work/work at mode 000). */
async function removeTree(root: string): Promise<void> {
  const open = async (folder: string): Promise<void> => {
    await fs.chmod(folder, 0o700).catch(() => undefined);
    for (const entry of await fs.readdir(folder, { withFileTypes: true }).catch(() => [])) {
      if (entry.isDirectory()) await open(path.join(folder, entry.name));
    }
  };
  await open(root);
  await fs.rm(root, { recursive: true, force: true });
}

async function chownTree(target: string, uid: number, gid: number): Promise<void> {
  await fs.lchown(target, uid, gid);
  const stat = await fs.lstat(target);
  if (!stat.isDirectory()) return;
  for (const entry of await fs.readdir(target)) await chownTree(path.join(target, entry), uid, gid);
}

interface Case {
  readonly root: string;
  /** The workspace: the overlay's lower layer and its mount point. */
  readonly ws: string;
  /** The staging folder on the host (upper/ and work/), bound at `/dev/.openwork-stage`. */
  readonly staging: string;
  readonly helper: string;
  readonly runner: Runner;
}

/** A fresh workspace and staging folder owned by the runner, and the helper where the runner can execute it. */
async function makeCase(runner: Runner): Promise<Case> {
  const root = await makeTempDirectory('ow-stage-');
  const ws = path.join(root, 'ws');
  const staging = path.join(root, 'stage');
  await fs.mkdir(path.join(ws, 'sub'), { recursive: true });
  await fs.mkdir(path.join(ws, 'secret'));
  await fs.mkdir(path.join(staging, 'upper'), { recursive: true });
  await fs.mkdir(path.join(staging, 'work'));
  await fs.writeFile(path.join(ws, 'a.txt'), 'a\n');
  await fs.writeFile(path.join(ws, 'sub', 'b'), 'b\n');
  await fs.writeFile(path.join(ws, 'secret', 'key'), 'secret key\n');
  await fs.writeFile(path.join(ws, 'token'), 'token\n');
  await fs.writeFile(path.join(root, 'allowed'), 'allowed\n');
  let helper = installed;
  if (runner.uid !== selfUid) {
    // The installed helper's folder is ours alone (mode 0700); the other user runs a copy of the same bytes.
    helper = path.join(root, 'stage-mount');
    await fs.copyFile(installed, helper);
    await fs.chmod(helper, 0o555);
    await fs.chmod(root, 0o755);
    await chownTree(root, runner.uid, runner.gid);
  }
  return { root, ws, staging, helper, runner };
}

/** The workspace staged in an overlay, and the staging folder hidden behind an empty read-only folder. */
function overlayOf(c: Case): StageMount[] {
  return [
    { kind: 'overlay', target: c.ws, lower: c.ws, upper: `${stage}/upper`, work: `${stage}/work` },
    { kind: 'readonly-empty', target: stage },
  ];
}

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** bwrap as the renderer will call it, then `helperArgv` (the helper and its arguments). */
function bwrap(c: Case, helperArgv: readonly string[], capabilities: readonly string[] = ['--cap-add', 'ALL']): Run {
  const argv = [
    ...c.runner.prefix,
    'bwrap',
    '--unshare-pid',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    ...capabilities,
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--ro-bind',
    c.ws,
    c.ws,
    '--bind',
    c.staging,
    stage,
    '--chdir',
    c.ws,
    '--',
    ...helperArgv,
  ];
  const [file = '', ...args] = argv;
  const result = spawnSync(file, args, {
    cwd: '/',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: c.ws, LANG: 'C', LC_ALL: 'C' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.error !== undefined) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * `script` in bash, through the helper mounting `mounts` and then entering the workspace again
 * (`C`): bwrap's `--chdir` entered the read-only folder the overlay now covers.
 */
function staged(c: Case, mounts: readonly StageMount[], script: string): Run {
  const operations: StageMount[] = mounts.length === 0 ? [] : [...mounts, { kind: 'chdir', target: c.ws }];
  return bwrap(c, stagedCommand(c.helper, operations, { argv: ['/bin/bash', '-c', script], cwd: c.ws }).argv);
}

async function withCase(runner: Runner, body: (c: Case) => Promise<void>): Promise<void> {
  const c = await makeCase(runner);
  try {
    await body(c);
  } finally {
    await removeTree(c.root);
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(
    () => true,
    () => false,
  );
}

describe('on a CPU the helper is not built for (arm64, …)', () => {
  it('the self-check (doctor) and every bash call say exactly why bash is unavailable, and nothing is installed or run', async () => {
    const openworkHome = path.join(home, 'arm', '.openwork');
    const reason = 'bash is not available on linux arm64: the sandbox\'s staged-writes helper is built for x86-64 Linux only (arm64 and other CPUs have no bash yet; the file tools work)';
    expect(await runStagedSelfCheck('/usr/bin/bwrap', { arch: 'arm64' })).toEqual({ available: false, reason });
    let caught: unknown;
    try {
      installStageMountHelper(openworkHome, 'arm64');
    } catch (error) {
      caught = error;
    }
    expect(SandboxUnavailableError.isInstance(caught)).toBe(true);
    expect((caught as SandboxUnavailableError).reason).toBe(reason);
    await expect(fs.access(openworkHome)).rejects.toThrow();
  });
});

describe('the staged-writes mount helper is installed like the Landlock helper', () => {
  it('lives in <openworkHome>/helpers, named after its hash, mode 0555, byte for byte the program', async () => {
    const openworkHome = path.join(home, '.openwork');
    expect(installed).toBe(stageMountHelperPath(openworkHome));
    expect(path.basename(installed)).toBe(`stage-mount-${stageMountProgram().sha256.slice(0, 16)}`);
    const stat = await fs.lstat(installed);
    expect(stat.mode & 0o7777).toBe(0o555);
    expect((await fs.readFile(installed)).equals(stageMountProgram().bytes)).toBe(true);
  });

  it('a replaced helper is rewritten before use; one that cannot be is refused with its own name', async () => {
    const openworkHome = path.join(home, 'other', '.openwork');
    const file = installStageMountHelper(openworkHome);
    await fs.rm(file);
    await fs.writeFile(file, '#!/bin/sh\nshift\nexec "$@"\n', { mode: 0o555 });
    installStageMountHelper(openworkHome);
    expect((await fs.readFile(file)).equals(stageMountProgram().bytes)).toBe(true);
    await fs.chmod(path.dirname(file), 0o777);
    expect(() => installStageMountHelper(openworkHome)).toThrow(/the staged-writes mount helper's folder cannot be trusted/);
  });

  it('a file of the user where the helpers folder belongs is removed and the helper installed (not refused for ever)', async () => {
    const openworkHome = path.join(home, 'forged', '.openwork');
    await fs.mkdir(openworkHome, { recursive: true });
    await fs.writeFile(path.join(openworkHome, 'helpers'), 'forged\n');
    const file = installStageMountHelper(openworkHome);
    expect((await fs.readFile(file)).equals(stageMountProgram().bytes)).toBe(true);
  });

  it('with no arguments it only exits 0 (the probe that it runs)', () => {
    const run = spawnSync(installed, [], { encoding: 'utf8' });
    expect([run.status, run.stdout, run.stderr]).toEqual([0, '', '']);
  });
});

for (const runner of runners) {
  describe.skipIf(runner.missing !== undefined)(`the helper inside bwrap, ${runner.name}${runner.missing === undefined ? '' : ` — skipped: ${runner.missing}`}`, () => {
    it('writes (relative to the working folder, entered again with C) land in the upper folder, not in the lower; a delete leaves a whiteout (a character device 0/0)', async () => {
      await withCase(runner, async (c) => {
        const run = staged(c, overlayOf(c), 'echo new > c.txt && echo more >> a.txt && rm sub/b && mkdir -p d/e && echo f > d/e/f && cat a.txt && ls sub | wc -l');
        expect([run.stderr, run.status]).toEqual(['', 0]);
        expect(run.stdout).toBe('a\nmore\n0\n');
        const upper = path.join(c.staging, 'upper');
        expect(await fs.readFile(path.join(upper, 'c.txt'), 'utf8')).toBe('new\n');
        expect(await fs.readFile(path.join(upper, 'a.txt'), 'utf8')).toBe('a\nmore\n');
        expect(await fs.readFile(path.join(upper, 'd', 'e', 'f'), 'utf8')).toBe('f\n');
        const whiteout = await fs.lstat(path.join(upper, 'sub', 'b'));
        expect(whiteout.isCharacterDevice()).toBe(true);
        expect(whiteout.rdev).toBe(0);
        // The lower layer — the real workspace — is as it was.
        expect(await fs.readFile(path.join(c.ws, 'a.txt'), 'utf8')).toBe('a\n');
        expect(await fs.readFile(path.join(c.ws, 'sub', 'b'), 'utf8')).toBe('b\n');
        expect(await exists(path.join(c.ws, 'c.txt'))).toBe(false);
        expect(await exists(path.join(c.ws, 'd'))).toBe(false);
      });
    });

    it('T and N masks hold over the overlay; B binds a file back over a mask; the staging folder is hidden', async () => {
      await withCase(runner, async (c) => {
        const mounts: StageMount[] = [
          ...overlayOf(c),
          { kind: 'readonly-empty', target: `${c.ws}/secret` },
          { kind: 'null-device', target: `${c.ws}/token` },
          { kind: 'null-device', target: `${c.ws}/sub/b` },
          { kind: 'bind', source: `${c.root}/allowed`, target: `${c.ws}/sub/b` },
        ];
        const script = [
          'ls secret 2>&1 || true',
          'cat secret/key 2>&1 || true',
          'touch secret/new 2>&1 || true',
          'echo "token [$(cat token)]"',
          'echo overwrite > token',
          'cat sub/b',
          `ls ${stage} 2>&1 || true`,
          `touch ${stage}/upper/planted 2>&1 || true`,
        ].join('\n');
        const run = staged(c, mounts, script);
        expect(run.stderr).toBe('');
        expect(run.stdout).toBe(
          [
            "ls: cannot open directory 'secret': Permission denied",
            "cat: secret/key: Permission denied",
            "touch: cannot touch 'secret/new': Permission denied",
            'token []',
            'allowed',
            `ls: cannot open directory '${stage}': Permission denied`,
            `touch: cannot touch '${stage}/upper/planted': Permission denied`,
            '',
          ].join('\n'),
        );
        expect(run.status).toBe(0);
        // Nothing reached the upper layer through the masks; the token itself is untouched.
        expect(await exists(path.join(c.staging, 'upper', 'secret'))).toBe(false);
        expect(await exists(path.join(c.staging, 'upper', 'token'))).toBe(false);
        expect(await exists(path.join(c.staging, 'upper', 'planted'))).toBe(false);
        expect(await fs.readFile(path.join(c.ws, 'token'), 'utf8')).toBe('token\n');
      });
    });

    it('the command cannot unmount the overlay or a mask, remount, or reach the lower folder from a user namespace of its own', async () => {
      await withCase(runner, async (c) => {
        const mounts: StageMount[] = [...overlayOf(c), { kind: 'null-device', target: `${c.ws}/token` }];
        const script = [
          `umount ${c.ws} >/dev/null 2>&1; echo "umount overlay $?"`,
          `umount -l ${c.ws}/token >/dev/null 2>&1; echo "umount mask $?"`,
          `mount -o remount,rw ${c.ws} >/dev/null 2>&1; echo "remount $?"`,
          `umount ${stage} >/dev/null 2>&1; echo "umount staging mask $?"`,
          // In a user namespace of its own the command has every capability, but the mounts it
          // inherited are locked: it cannot take them apart to reach what they cover.
          `unshare -Urm sh -c 'umount ${c.ws} >/dev/null 2>&1; echo "nested umount $?"; umount ${c.ws}/token >/dev/null 2>&1; echo "nested umount mask $?"; echo nested > ${c.ws}/nested.txt' 2>&1`,
          `echo "token [$(cat token)]"`,
        ].join('\n');
        const run = staged(c, mounts, script);
        expect(run.stderr).toBe('');
        expect(run.stdout).toMatch(/^umount overlay [1-9]\d*\numount mask [1-9]\d*\nremount [1-9]\d*\numount staging mask [1-9]\d*\n/);
        if (runner.uid === 0) {
          // Root without capabilities cannot even map itself into a user namespace (mapping uid 0
          // needs CAP_SETFCAP), so it never gets the capabilities to try.
          expect(run.stdout).toContain('unshare: write failed /proc/self/uid_map: Operation not permitted\n');
        } else {
          expect(run.stdout).toMatch(/nested umount [1-9]\d*\nnested umount mask [1-9]\d*\n/);
          // What the nested namespace wrote went through the overlay.
          expect(await fs.readFile(path.join(c.staging, 'upper', 'nested.txt'), 'utf8')).toBe('nested\n');
        }
        expect(run.stdout).toMatch(/token \[\]\n$/);
        expect(await exists(path.join(c.ws, 'nested.txt'))).toBe(false);
        expect(await fs.readdir(c.ws)).toEqual(['a.txt', 'secret', 'sub', 'token']);
      });
    });

    it('all five capability sets of the command are empty and no_new_privs is set', async () => {
      await withCase(runner, async (c) => {
        const run = staged(c, overlayOf(c), 'grep -E "^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):" /proc/self/status');
        expect(run.stderr).toBe('');
        expect(run.stdout).toBe(
          [
            'CapInh:\t0000000000000000',
            'CapPrm:\t0000000000000000',
            'CapEff:\t0000000000000000',
            'CapBnd:\t0000000000000000',
            'CapAmb:\t0000000000000000',
            'NoNewPrivs:\t1',
            '',
          ].join('\n'),
        );
      });
    });

    it('with nothing to mount (an empty operations argument) it still drops every capability and runs the command', async () => {
      await withCase(runner, async (c) => {
        const run = staged(c, [], 'grep CapBnd /proc/self/status; touch ran 2>&1 || true');
        expect(run.stdout).toBe(`CapBnd:\t0000000000000000\ntouch: cannot touch 'ran': Read-only file system\n`);
        expect(run.status).toBe(0);
      });
    });

    it('a mount that fails reports its stage, target and errno on one line, exits 127, and the command did not run', async () => {
      await withCase(runner, async (c) => {
        const missing = `${c.ws}/no-such-folder`;
        const mounts: StageMount[] = [...overlayOf(c), { kind: 'readonly-empty', target: missing }];
        const run = staged(c, mounts, `touch ${c.ws}/ran`);
        expect(run).toEqual({ status: 127, stdout: '', stderr: stageFailureLine(STAGE_MOUNT_FAILED_MESSAGE, missing, ENOENT) });
        expect(await fs.readdir(path.join(c.staging, 'upper'))).toEqual([]);
      });
    });

    it('an unknown operation, or a missing operand, fails before the command runs', async () => {
      await withCase(runner, async (c) => {
        const marker = `${stage}/ran`;
        const malformed = stageFailureLine(STAGE_ARGUMENTS_MALFORMED_MESSAGE);
        expect(bwrap(c, [c.helper, 'X', '/tmp', '/usr/bin/touch', marker])).toEqual({ status: 127, stdout: '', stderr: malformed });
        expect(bwrap(c, [c.helper, 'O', c.ws])).toEqual({ status: 127, stdout: '', stderr: malformed });
        // A program where an operand belongs is taken for the operand (why stagedCommand counts them):
        // here for the overlay's options, which the kernel refuses — the command still does not run.
        expect(bwrap(c, [c.helper, 'O', c.ws, '/usr/bin/touch', marker])).toEqual({ status: 127, stdout: '', stderr: stageFailureLine(STAGE_MOUNT_FAILED_MESSAGE, c.ws, EINVAL) });
        expect(bwrap(c, [c.helper, 'T'])).toEqual({ status: 127, stdout: '', stderr: malformed });
        expect(bwrap(c, [c.helper, ''])).toEqual({ status: 127, stdout: '', stderr: malformed });
        expect(await fs.readdir(c.staging)).toEqual(['upper', 'work']);
      });
    });

    it('without C the command stays in the folder bwrap entered, under the overlay: its relative writes fail, nothing is staged', async () => {
      await withCase(runner, async (c) => {
        const run = bwrap(c, stagedCommand(c.helper, overlayOf(c), { argv: ['/bin/bash', '-c', 'touch here 2>&1; touch $PWD/there'], cwd: c.ws }).argv);
        expect(run.stdout).toBe("touch: cannot touch 'here': Read-only file system\n");
        expect(await fs.readdir(path.join(c.staging, 'upper'))).toEqual(['there']);
      });
    });

    it('a working folder that cannot be entered (C) is named with its errno, and the command did not run', async () => {
      await withCase(runner, async (c) => {
        const missing = `${c.ws}/no-such-folder`;
        const run = bwrap(c, stagedCommand(c.helper, [...overlayOf(c), { kind: 'chdir', target: missing }], { argv: ['/bin/bash', '-c', `touch ${c.ws}/ran`], cwd: c.ws }).argv);
        expect(run).toEqual({ status: 127, stdout: '', stderr: stageFailureLine(STAGE_CHDIR_FAILED_MESSAGE, missing, ENOENT) });
        expect(await fs.readdir(path.join(c.staging, 'upper'))).toEqual([]);
      });
    });

    it('a program that cannot be started is named with its errno', async () => {
      await withCase(runner, async (c) => {
        const run = bwrap(c, stagedCommand(c.helper, overlayOf(c), { argv: ['/no/such/program', 'x'], cwd: c.ws }).argv);
        expect(run).toEqual({ status: 127, stdout: '', stderr: stageFailureLine(STAGE_EXEC_FAILED_MESSAGE, '/no/such/program', ENOENT) });
      });
    });

    it('without the capabilities to drop them (no CAP_SETPCAP) it fails closed: the command does not run', async () => {
      await withCase(runner, async (c) => {
        const run = bwrap(c, stagedCommand(c.helper, [], { argv: ['/bin/bash', '-c', `echo ran`], cwd: c.ws }).argv, ['--cap-add', 'CAP_SYS_ADMIN']);
        expect(run).toEqual({ status: 127, stdout: '', stderr: stageFailureLine(STAGE_CAPABILITIES_FAILED_MESSAGE, undefined, EPERM) });
      });
    });

    it.skipIf(runner.uid === 0)(`outside bwrap, as a user without CAP_SYS_ADMIN, it cannot make its mount namespace and says so${runner.uid === 0 ? ' — skipped: root may unshare anywhere' : ''}`, async () => {
      await withCase(runner, async (c) => {
        const [file = '', ...args] = [...runner.prefix, c.helper, '', '/bin/echo', 'ran'];
        const run = spawnSync(file, args, { cwd: '/', encoding: 'utf8' });
        expect([run.status, run.stdout, run.stderr]).toEqual([127, '', stageFailureLine(STAGE_UNSHARE_FAILED_MESSAGE, undefined, EPERM)]);
      });
    });
  });
}
