import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built executable the tests run, as a user would (`openwork …`): the bundle the package's `bin` runs. */
export const OPENWORK_BIN = fileURLToPath(new URL('../../dist/bundle/openwork.js', import.meta.url));

/** A temp HOME, OpenWork home and workspace for one test; never the real ones. */
export interface CliSandbox {
  readonly root: string;
  readonly home: string;
  readonly openworkHome: string;
  readonly workspace: string;
  readonly environment: Record<string, string>;
  remove(): Promise<void>;
}

export async function createCliSandbox(): Promise<CliSandbox> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'openwork-cli-test-')));
  const home = join(root, 'home');
  const openworkHome = join(home, '.openwork');
  const workspace = join(root, 'workspace');
  await mkdir(workspace, { recursive: true });
  await mkdir(home, { recursive: true });
  const environment: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    OPENWORK_HOME: openworkHome,
    TMPDIR: process.env['TMPDIR'] ?? tmpdir(),
  };
  return { root, home, openworkHome, workspace, environment, remove: () => rm(root, { recursive: true, force: true }) };
}

export interface CliRun {
  readonly status: number | null;
  /** The signal that ended the process, if one did. */
  readonly signal?: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `openwork <argv>` to the end with `stdin` as its input. */
export function runOpenwork(argv: readonly string[], options: { environment: Record<string, string>; cwd?: string; stdin?: string }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [OPENWORK_BIN, ...argv], { env: options.environment, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}
