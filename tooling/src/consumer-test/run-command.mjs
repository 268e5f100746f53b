// @ts-check
import { spawn } from 'node:child_process';

/**
 * @typedef {object} CommandOutcome
 * @property {string} command the command line, for messages
 * @property {number | null} exitCode
 * @property {string} stdout
 * @property {string} stderr
 * @property {boolean} timedOut
 * @property {number} durationMs
 */

/**
 * Runs one program to completion in its own process group and collects its output. A program that
 * outlives `timeoutMs` is killed with its whole group and reported as timed out, so a hanging
 * install or example never hangs CI.
 * @param {string} program
 * @param {readonly string[]} args
 * @param {{ cwd: string, env?: NodeJS.ProcessEnv, timeoutMs?: number }} options
 * @returns {Promise<CommandOutcome>}
 */
export function runCommand(program, args, { cwd, env = process.env, timeoutMs = 300_000 }) {
  const command = [program, ...args].join(' ');
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(program, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    /** @type {Buffer[]} */ const out = [];
    /** @type {Buffer[]} */ const err = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }, timeoutMs);
    const finish = (/** @type {number | null} */ exitCode, /** @type {string} */ spawnError = '') => {
      clearTimeout(timer);
      resolve({
        command,
        exitCode,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8') + spawnError,
        timedOut,
        durationMs: Date.now() - started,
      });
    };
    child.once('error', (error) => finish(null, `could not start ${program}: ${error.message}`));
    child.once('close', (code) => finish(code));
  });
}

/**
 * The last lines of a command's output, for a failure message that fits on a screen.
 * @param {CommandOutcome} outcome
 * @param {number} [lines]
 */
export function describeFailure(outcome, lines = 30) {
  const status = outcome.timedOut ? 'timed out' : `exit ${outcome.exitCode}`;
  const output = `${outcome.stdout}\n${outcome.stderr}`.trim().split('\n').slice(-lines).join('\n');
  return `${outcome.command} (${status})${output ? `\n${output}` : ''}`;
}
