/**
 * Where a background task is. `exited` covers every exit code (and a death by a signal
 * nobody here sent); `killed` is bash_kill or the end of its session; `failed` means it could not
 * be started or its processes could not be confirmed gone.
 */
export type BackgroundTaskState = 'running' | 'exited' | 'killed' | 'failed';

/** The `background_task` artifact, for hosts; never sent to the model (§8.1). */
export type BackgroundTaskArtifact = {
  readonly kind: 'background_task';
  readonly taskId: string;
  readonly command: string;
  readonly description?: string;
  readonly state: BackgroundTaskState;
  readonly exitCode: number | null;
  /** ISO 8601. */
  readonly startedAt: string;
};
