import { MAX_TIMEOUT_MS } from './bash-limits.js';

/** What set the timeout of a call that timed out (see `effectiveTimeout`). */
export interface TimeoutFacts {
  /** The timeout the command ran with. */
  readonly timeoutMs: number;
  /** `timeoutMs` after clamping: what the call asked for. */
  readonly requestedMs: number;
  readonly limitedBy: 'timeoutMs' | 'deadline';
}

/**
 * The line after the status line of a timed-out call: what happened and how to recover (the
 * Denova peer's recovery hints, architecture §8): narrow the command, or raise `timeoutMs` — only
 * when that can help (not past 600,000, not when the turn's deadline was the limit).
 */
export function bashTimeoutHint(facts: TimeoutFacts): string {
  const killed = 'it and every process it started were killed; the output above is what it printed until then.';
  const narrow = 'narrow the command (fewer files, less input, one step of a longer job at a time)';
  if (facts.limitedBy === 'deadline') {
    return `The command reached this call's deadline after ${facts.timeoutMs} ms (before its timeoutMs of ${facts.requestedMs}) and was stopped: ${killed} A larger timeoutMs does not help here: ${narrow}.`;
  }
  if (facts.timeoutMs >= MAX_TIMEOUT_MS) {
    return `The command did not finish within ${facts.timeoutMs} ms, the longest timeoutMs allowed: ${killed} To recover, ${narrow}, or run it with runInBackground: true and read its output with bash_output.`;
  }
  return `The command did not finish within ${facts.timeoutMs} ms: ${killed} To recover, ${narrow}, or call bash again with a larger timeoutMs (at most ${MAX_TIMEOUT_MS}).`;
}
