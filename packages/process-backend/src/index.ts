export type { ProcessBackend, ProcessProgress, ProcessSpawnOptions, SpillTarget } from './process-backend.js';
export type { ProcessOutcome, ProcessStatus, SpillRecord } from './process-outcome.js';
export { ProcessStdin, MAX_QUEUED_STDIN_BYTES } from './process-stdin.js';
export type { StdinWrite } from './process-stdin.js';
export { BoundedCapture } from './bounded-capture.js';
export type { BoundedCaptureOptions, CapturedOutput } from './bounded-capture.js';
export { NodeProcessBackend } from './node-process-backend.js';
export type { NodeProcessBackendOptions } from './node-process-backend.js';
export { terminateProcessGroup } from './terminate-process-group.js';
export type { KillProcessGroup, TerminateProcessGroupOptions, TerminationResult } from './terminate-process-group.js';
export { formatStatusLine } from './format-status-line.js';
export { ProcessBackendError, InvalidSpawnRequestError } from './process-backend-error.js';
export {
  CAPTURE_HEAD_BYTES,
  CAPTURE_TAIL_BYTES,
  SPILL_THRESHOLD_BYTES,
  MAX_SPILL_BYTES,
  PIPE_DRAIN_MS,
  PIPE_DRAIN_LIMIT_MS,
  TERMINATE_WAIT_MS,
  PROGRESS_BYTES_PER_SECOND,
  PROGRESS_BURST_BYTES,
} from './capture-limits.js';
