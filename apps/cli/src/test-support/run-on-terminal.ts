import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { OPENWORK_BIN } from './cli-sandbox.js';

const HELPER = fileURLToPath(new URL('./run-on-terminal.py', import.meta.url));

export interface TerminalRun {
  readonly status: number | null;
  /** Every byte the command wrote to the terminal (stdout and stderr share it), as UTF-8. */
  readonly output: string;
}

/**
 * Runs `openwork <argv>` on a real pseudo-terminal (python3's `pty`: no native dependency) and
 * types `answer` + Enter once `prompt` appeared, as the person at the terminal would.
 */
export function runOpenworkOnTerminal(argv: readonly string[], options: { environment: Record<string, string>; cwd: string; prompt: string; answer: string }): Promise<TerminalRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [HELPER, options.answer, options.prompt, process.execPath, OPENWORK_BIN, ...argv], {
      env: { ...options.environment, TERM: 'xterm' },
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output: Buffer.concat(chunks).toString('utf8') }));
  });
}

/**
 * Runs `command` (argv, e.g. `sh -c …` running openwork twice, as a person would one after the
 * other) on one pseudo-terminal of 80 columns, typing `answer` + Enter once `prompt` appeared
 * (no prompt: types nothing).
 */
export function runOnTerminal(command: readonly string[], options: { environment: Record<string, string>; cwd: string; prompt?: string; answer?: string }): Promise<TerminalRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [HELPER, options.answer ?? '', options.prompt ?? '', ...command], {
      env: { ...options.environment, TERM: 'xterm' },
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output: Buffer.concat(chunks).toString('utf8') }));
  });
}
