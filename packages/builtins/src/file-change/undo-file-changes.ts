import type { FileChangeEngineOptions } from './file-change-engine-options.js';
import type { FileChangeOutcome } from './file-change-outcome.js';
import { planFileChangeSteps, type FileChangeRequest } from './plan-file-change-steps.js';
import { runFileChangeSteps } from './run-file-change-steps.js';

/**
 * §8.4 undo by change ID: restore each selected change's `beforeContent` (delete the file for a
 * `created` change), last change first. Each file must still hold the change's `afterHash`,
 * else the outcome is a conflict and nothing is overwritten. Writes go through the fence (the
 * session's policy plus an exact write grant per file), the session's write locks and
 * fs-backend's atomic write; if a step fails, the steps done are rolled back (`RollbackFailed`
 * when that fails too). On success, store `outcome.artifacts` back: their `undone` is `true`.
 * Does not touch the observation table (§7.4): the model reads a file again before editing it.
 */
export async function undoFileChanges(request: FileChangeRequest, options: FileChangeEngineOptions): Promise<FileChangeOutcome> {
  const plan = planFileChangeSteps('undo', request);
  if (!plan.ok) return plan;
  return runFileChangeSteps('undo', plan, options);
}
