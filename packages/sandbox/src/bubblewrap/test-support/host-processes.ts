import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { SandboxMode } from '../../index.js';

/** The JSON argument of `sandbox-host-child.ts`. */
export interface HostConfiguration {
  readonly workspace: string;
  readonly home: string;
  readonly openworkHome: string;
  readonly temp: string;
  readonly mode: SandboxMode;
  /** Bash scripts run in turn, `rounds` times over. */
  readonly calls: readonly string[];
  readonly rounds: number;
  /** After the last call, print `done` and wait until stdin closes (so the test can look first). */
  readonly waitAtEnd?: boolean;
  /** Start bwrap without `--die-with-parent`: a host killed before bwrap armed it (the crash tests). */
  readonly unarmed?: boolean;
}

/** A running "openwork process" (see `sandbox-host-child.ts`). */
export interface HostProcess {
  readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  /** Resolves once the host printed `text` on stdout (its own or a sandboxed command's). */
  printed(text: string): Promise<void>;
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null; readonly stdout: string; readonly stderr: string }>;
}

export function startHost(build: string, configuration: HostConfiguration): HostProcess {
  const child = spawn(process.execPath, [path.join(build, 'bubblewrap/test-support/sandbox-host-child.js'), JSON.stringify(configuration)], {
    cwd: build,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: configuration.home, OPENWORK_HOME: configuration.openworkHome },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiting: Array<{ text: string; resolve: () => void }> = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const waiter of waiting) if (stdout.includes(waiter.text)) waiter.resolve();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return {
    child,
    exited,
    printed: (text) =>
      new Promise<void>((resolve, reject) => {
        if (stdout.includes(text)) return resolve();
        waiting.push({ text, resolve });
        void exited.then((end) => reject(new Error(`the host exited (${String(end.code ?? end.signal)}) before printing ${text}: ${end.stderr}`)));
      }),
  };
}

/** Pids of processes whose argv contains every one of `argumentsWanted` exactly (the reaper: `--input-type=module` and its registry folder). */
export function processesWithArguments(...argumentsWanted: string[]): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (argumentsWanted.every((argument) => argv.includes(argument))) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Poll `check` every 50 ms until it returns true or `limitMs` passed; returns the last result. */
export async function eventually(check: () => boolean | Promise<boolean>, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What `bash -l` prints in `home` with a clean environment: how the user's shell starts. */
export function loginShell(home: string): string {
  const result = spawnSync('/bin/bash', ['-l', '-c', 'echo shell-ok'], { cwd: home, env: { HOME: home, PATH: '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C' }, encoding: 'utf8' });
  return `status ${String(result.status)}\nstdout:\n${result.stdout}stderr:\n${result.stderr}`;
}
