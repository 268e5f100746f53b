import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SandboxAvailability } from '../backend/sandbox-backend.js';
import type { SandboxLayout } from '../policy/sandbox-layout.js';
import type { MountPointLedger } from './mount-point-ledger.js';
import { vanishedMaskTarget } from './vanished-mask-target.js';
import { wrapWithBubblewrap } from './wrap-with-bubblewrap.js';

const selfCheckTimeoutMs = 10_000;
/** Starts of the check when a host socket it masked went away meanwhile. */
const maximumStarts = 3;

interface RunOutcome {
  readonly error: (Error & { code?: unknown; signal?: unknown; killed?: boolean }) | null;
  readonly stderr: string;
}

function run(argv: readonly string[], cwd: string): Promise<RunOutcome> {
  const [file, ...args] = argv as [string, ...string[]];
  return new Promise((resolve) => {
    execFile(file, args, { cwd, timeout: selfCheckTimeoutMs, encoding: 'utf8' }, (error, _stdout, stderr) => {
      resolve({ error, stderr: String(stderr) });
    });
  });
}

function reasonFor(bwrapPath: string, outcome: RunOutcome): string {
  const error = outcome.error as NonNullable<RunOutcome['error']>;
  const stderr = outcome.stderr.trim();
  if (error.code === 'ENOENT') {
    return `bubblewrap is not installed: no executable at ${bwrapPath} (spawn ENOENT); install it with apt-get install bubblewrap (Debian, Ubuntu), dnf install bubblewrap (Fedora, RHEL), pacman -S bubblewrap (Arch), zypper install bubblewrap (openSUSE)`;
  }
  if (error.code === 'EACCES') return `bubblewrap at ${bwrapPath} cannot be executed (spawn EACCES)`;
  if (error.killed === true || typeof error.signal === 'string') {
    return `bubblewrap did not finish its self-check (${String(error.signal ?? 'killed')} after ${selfCheckTimeoutMs} ms)${stderr === '' ? '' : `: ${stderr}`}`;
  }
  const status = typeof error.code === 'number' ? `exit ${error.code}` : String(error.code ?? error.message);
  return `bubblewrap failed its self-check (${status}): ${stderr === '' ? error.message : stderr}`;
}

/**
 * Architecture §3.4 self-check: run `true` under the real arguments of a small layout that uses
 * every kind of mount the renderer emits (writable bind, `/dev/null` mask of a missing name,
 * tmpfs + remount-ro mask), so that setups where bwrap cannot work (no user namespaces, AppArmor,
 * unprivileged containers — peers.md) report `unavailable` with bwrap's own words.
 */
export async function runBubblewrapSelfCheck(bwrapPath: string, ledgerIn: (directory: string) => MountPointLedger): Promise<SandboxAvailability> {
  let scratch: string;
  try {
    scratch = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'openwork-bwrap-check-')));
    await fs.mkdir(path.join(scratch, 'credentials'));
  } catch (error) {
    return { available: false, reason: `cannot prepare the bubblewrap self-check: ${String(error)}` };
  }
  try {
    const layout: SandboxLayout = {
      writable: [{ path: scratch, scope: 'subtree' }],
      readOnly: [{ path: path.join(scratch, '.protected'), scope: 'subtree' }],
      unreadable: [{ path: path.join(scratch, 'credentials'), scope: 'subtree' }],
      hardProtected: [],
      readableGrants: [],
      writableGrants: [],
      deviceFiles: [],
      network: 'allow',
      letterCase: 'sensitive',
    };
    // A registry of its own next to the scratch root: nothing the self-check plants concerns other processes.
    const ledger = ledgerIn(`${scratch}-registry`);
    for (let start = 1; ; start += 1) {
      const wrapped = wrapWithBubblewrap(bwrapPath, { argv: ['true'], cwd: scratch }, layout, ledger);
      let outcome: RunOutcome;
      try {
        outcome = await run(wrapped.argv, scratch);
      } finally {
        await wrapped.release();
      }
      if (outcome.error === null) return { available: true };
      // A host socket it masked went away before bwrap started (`vanishedMaskTarget`): not a broken
      // sandbox. A failed check makes `wrap` refuse for the process's life, so it is run again.
      const code = typeof outcome.error.code === 'number' ? outcome.error.code : null;
      if (start < maximumStarts && vanishedMaskTarget(wrapped.argv, { exitCode: code, output: outcome.stderr }) !== undefined) continue;
      return { available: false, reason: reasonFor(bwrapPath, outcome) };
    }
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
    await fs.rm(`${scratch}-registry`, { recursive: true, force: true });
  }
}
