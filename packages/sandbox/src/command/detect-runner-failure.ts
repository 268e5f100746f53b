import type { SandboxedCommandOutcome } from './sandboxed-command-outcome.js';

/** The sandbox runner itself failed, so the command never ran: `sandbox_unavailable` (§7.9, 10e). */
export interface RunnerFailure {
  /** Short, user-facing: what the runner said, or that it did not start. */
  readonly reason: string;
  /** The runner's own message line, when there was one. */
  readonly line: string | undefined;
}

// bwrap, sandbox-exec and the stage helper prefix their own errors with their name; they fail
// before the command starts, so the message is the first thing in the output (§3.5: not a kernel
// denial).
const runnerMessage = /^(?:bwrap|sandbox-exec|openwork sandbox): .+$/;

/**
 * Recognises a runner failure — `bwrap: setting up uid map: Permission denied`,
 * `bwrap: No permissions to create new namespace`, `bwrap: Unknown option …`,
 * `bwrap: execvp …`, `sandbox-exec: sandbox_apply: Operation not permitted` — or a runner the
 * caller knows did not start. The kernel words in these lines must not be read as a denial.
 */
export function detectRunnerFailure(outcome: SandboxedCommandOutcome): RunnerFailure | undefined {
  if (outcome.runnerFailed === true) {
    const line = firstLine(outcome.output);
    return { reason: line === undefined ? 'the sandbox runner did not start' : `the sandbox runner did not start: ${line}`, line };
  }
  if (outcome.exitCode === 0) return undefined;
  // A runner that fails says one thing and stops. A command that ran may print a `bwrap: …` line
  // itself (a nested sandbox, a log) followed by more: that is the command's failure, not ours.
  const lines = nonEmptyLines(outcome.output);
  const line = lines[0];
  if (line === undefined || !lines.every((candidate) => runnerMessage.test(candidate))) return undefined;
  return { reason: `the sandbox runner failed: ${line}`, line };
}

function nonEmptyLines(output: string): string[] {
  return output.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
}

function firstLine(output: string): string | undefined {
  for (const line of output.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed !== '') return trimmed;
  }
  return undefined;
}
