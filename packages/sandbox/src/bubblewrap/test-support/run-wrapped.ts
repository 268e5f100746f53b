import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { WrappedCommand } from '../../backend/sandbox-backend.js';
import type { StagedApplyReport } from '../../staging/staged-writes.js';
import { BubblewrapBackend } from '../bubblewrap-backend.js';

export interface WrappedRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** What `release()` told the model (architecture §3.5): refused staged changes, audit findings. */
  readonly notices: readonly string[];
  /** With staged writes (architecture §3.10): what `release()` applied to the host and what it refused. */
  readonly staged: StagedApplyReport | undefined;
}

/** What a `release()` reported, as `WrappedRun` carries it. */
export async function releaseReport(wrapped: WrappedCommand): Promise<Pick<WrappedRun, 'notices' | 'staged'>> {
  const report = await wrapped.release();
  const staged = report !== undefined && 'staged' in report ? (report as { staged: StagedApplyReport }).staged : undefined;
  return { notices: report?.notices ?? [], staged };
}

/** The host paths of a staged run's refused changes, for assertions. */
export function refusedPaths(run: Pick<WrappedRun, 'staged'>): string[] {
  return (run.staged?.refused ?? []).map((refusal) => refusal.path);
}

/**
 * The environment bash gets (spec §4), never the test runner's: HOME is the working directory, so
 * nothing reads or writes the real home, and the C locale keeps kernel messages in English.
 */
export function sandboxedEnvironment(cwd: string): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: cwd, LANG: 'C', LC_ALL: 'C' };
}

/** A spawned sandboxed command and the promise of its `close` (exit code and signal). */
export interface SandboxedChild {
  readonly child: ChildProcessByStdio<Writable | null, Readable, Readable>;
  readonly closed: Promise<[number | null, NodeJS.Signals | null]>;
}

/**
 * Spawn a wrapped argv the way a process backend would: own process group, the hermetic
 * environment, and a SIGKILL of the whole group after `timeoutMs` (the timer ends with the child).
 */
export function spawnSandboxed(argv: readonly string[], cwd: string, stdin: 'ignore' | 'pipe', timeoutMs: number): SandboxedChild {
  const [file, ...args] = argv as [string, ...string[]];
  const child = spawn(file, args, { cwd, env: sandboxedEnvironment(cwd), detached: true, stdio: [stdin, 'pipe', 'pipe'] }) as SandboxedChild['child'];
  const timer = setTimeout(() => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // already gone
    }
  }, timeoutMs);
  const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
  }).finally(() => clearTimeout(timer));
  return { child, closed };
}

/**
 * Run a wrapped argv to its end with `spawnSandboxed`, and always call `release()` afterwards; the
 * result carries what `release()` reported (with staged writes, what reached the host).
 */
export async function runWrapped(wrapped: WrappedCommand, cwd: string, timeoutMs = 20_000): Promise<WrappedRun> {
  let ran: Omit<WrappedRun, 'notices' | 'staged'>;
  try {
    const { child, closed } = spawnSandboxed(wrapped.argv, cwd, 'ignore', timeoutMs);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code, signal] = await closed;
    ran = { code, signal, stdout, stderr };
  } catch (error) {
    await wrapped.release();
    throw error;
  }
  return { ...ran, ...(await releaseReport(wrapped)) };
}

/** A fresh, canonical temp directory; remove it with `fs.rm(dir, {recursive: true, force: true})`. */
export async function makeTempDirectory(prefix: string): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
}

/**
 * For `beforeAll`: the suites need the real bwrap. If it cannot run here they FAIL with the
 * self-check's reason instead of skipping silently.
 */
export async function requireBubblewrap(): Promise<void> {
  const availability = await new BubblewrapBackend().selfCheck();
  if (!availability.available) throw new Error(`bubblewrap is required for this suite: ${availability.reason}`);
}

/** Every path below `root` (files, directories, links), sorted, as `type path` lines. */
export async function listTree(root: string): Promise<string[]> {
  const lines: string[] = [];
  const walk = async (directory: string): Promise<void> => {
    for (const entry of await fs.readdir(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      const type = entry.isDirectory() ? 'd' : entry.isSymbolicLink() ? 'l' : entry.isFile() ? 'f' : 'o';
      lines.push(`${type} ${path.relative(root, full)}`);
      if (entry.isDirectory()) await walk(full);
    }
  };
  await walk(root);
  return lines.sort();
}
