/**
 * Sends a signal to a process or, with a negative id, to a process group; throws an errno error
 * (`code: 'ESRCH'`, `'EPERM'`…) on failure, like `process.kill`. Injectable so tests can make a
 * kill fail or observe that timeout and cancel go through the same path.
 */
export type KillProcessGroup = (pid: number, signal: 'SIGKILL') => unknown;

/** What `terminateProcessGroup` could establish. */
export type TerminationResult =
  | { readonly kind: 'terminated' }
  | { readonly kind: 'unknown'; readonly reason: string };

export interface TerminateProcessGroupOptions {
  /** Settles when the group leader has exited (the child's `exit` event). */
  readonly exited: Promise<unknown>;
  readonly kill: KillProcessGroup;
  /** Upper bound on the wait for `exited`. */
  readonly waitMs: number;
}

/**
 * The one terminate path for both timeout and cancellation (§5): SIGKILL the whole process group,
 * then wait, bounded, for the leader to exit. ESRCH means the group is already gone. Any other
 * kill failure, or a leader that does not exit in time, is reported as `unknown` — the caller
 * turns that into `outcome_unknown`, never into a claim that the process is dead.
 *
 * Only the leader's exit is awaited: SIGKILL cannot be caught, so the other members die with it,
 * and polling the group would see zombies that an init without reaping keeps forever.
 */
export async function terminateProcessGroup(pid: number, options: TerminateProcessGroupOptions): Promise<TerminationResult> {
  try {
    options.kill(-pid, 'SIGKILL');
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ESRCH') return { kind: 'terminated' };
    const detail = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
    return { kind: 'unknown', reason: `could not kill process group ${pid}: ${detail}` };
  }
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), options.waitMs);
  });
  try {
    const confirmed = await Promise.race([options.exited.then(() => true as const, () => true as const), timedOut]);
    if (confirmed) return { kind: 'terminated' };
    return { kind: 'unknown', reason: `process ${pid} did not exit within ${options.waitMs} ms of SIGKILL to its group` };
  } finally {
    clearTimeout(timer);
  }
}
