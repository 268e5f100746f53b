import type { FileChangeEngineOptions } from './file-change-engine-options.js';
import type { FileChangeOutcome } from './file-change-outcome.js';
import { planFileChangeSteps, type FileChangeRequest } from './plan-file-change-steps.js';
import { runFileChangeSteps } from './run-file-change-steps.js';

/**
 * §8.4 reapply by change ID: write each selected (undone) change's `afterContent` again, first
 * change first. Each file must hold the change's `beforeHash` (for a `created` change: no file),
 * else the outcome is a conflict and nothing is overwritten — in particular an edit made after
 * the undo. Same fence, locks, atomic writes and rollback as `undoFileChanges`. On success,
 * store `outcome.artifacts` back: their `undone` is `false`.
 */
export async function reapplyFileChanges(request: FileChangeRequest, options: FileChangeEngineOptions): Promise<FileChangeOutcome> {
  const plan = planFileChangeSteps('reapply', request);
  if (!plan.ok) return plan;
  return runFileChangeSteps('reapply', plan, options);
}
