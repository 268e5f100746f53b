/** What a finished sandboxed command left behind, as denial and runner-failure detection see it. */
export interface SandboxedCommandOutcome {
  /** Exit code; null when the process was killed by a signal or never started. */
  readonly exitCode: number | null;
  /** Standard output and error merged in arrival order, possibly cut to head + tail (§7.9). */
  readonly output: string;
  /** The caller already knows the runner did not start (spawn error, failed self-check). */
  readonly runnerFailed?: boolean;
}
