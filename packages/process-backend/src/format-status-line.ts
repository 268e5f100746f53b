import type { ProcessOutcome } from './process-outcome.js';

/**
 * The line appended after the output (§7.9): `[exit 7; duration 12 ms]`,
 * `[timed out after 30000 ms; duration 30004 ms]`, `[cancelled; duration 51 ms]`. The spec
 * gives only these three; the others follow the same shape.
 */
export function formatStatusLine(outcome: ProcessOutcome): string {
  const duration = `duration ${outcome.durationMs} ms`;
  switch (outcome.status) {
    case 'exited':
      if (outcome.exitCode === null && outcome.signal !== null) return `[killed by ${outcome.signal}; ${duration}]`;
      return `[exit ${outcome.exitCode ?? 'unknown'}; ${duration}]`;
    case 'timed_out':
      return `[timed out after ${outcome.timeoutMs ?? 'unknown'} ms; ${duration}]`;
    case 'cancelled':
      return `[cancelled; ${duration}]`;
    case 'outcome_unknown':
      return `[outcome unknown: ${outcome.error ?? 'the process could not be confirmed terminated'}; ${duration}]`;
    case 'failed':
      return `[failed: ${outcome.error ?? 'the process could not be run'}; ${duration}]`;
  }
}
