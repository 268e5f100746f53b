import { reapplyFileChanges, undoFileChanges, type FileChangeEngineOptions, type FileChangeOperation } from '@openwork/builtins';
import type { SessionStore } from '@openwork/session-store';
import type { SessionUpdate } from '../updates/session-update.js';
import type { FileChangesOutcome } from './file-changes-outcome.js';

/** What an undo or reapply needs from its session. */
export interface FileChangesHost {
  readonly sessionId: string;
  readonly store: SessionStore;
  /** The session's file system, write locks and policy (its mode, no call's grants). */
  readonly engine: FileChangeEngineOptions;
  publish(update: SessionUpdate): void;
}

/**
 * §8.4 by change ID: read the session's file-change artifacts from the store in the order they
 * were made, let builtins' engine check every hash and write (undo last-first, reapply
 * first-last, rolling back on failure, never overwriting a conflict), then rewrite `undone` in the
 * stored artifacts and tell the subscribers.
 */
export async function moveFileChanges(host: FileChangesHost, operation: FileChangeOperation, changeIds: readonly string[]): Promise<FileChangesOutcome> {
  const records = await host.store.listFileChanges(host.sessionId);
  const request = { artifacts: records.map((record) => record.artifact), changeIds };
  const outcome = operation === 'undo' ? await undoFileChanges(request, host.engine) : await reapplyFileChanges(request, host.engine);
  if (!outcome.ok) return outcome;
  const undone = operation === 'undo';
  try {
    await host.store.setUndone(host.sessionId, { changeIds: outcome.changeIds, undone });
  } catch (cause) {
    return {
      ok: false,
      code: 'record_failed',
      operation,
      changeIds: outcome.changeIds,
      cause,
      message: `The files were ${undone ? 'restored' : 'changed again'}, but the session record could not be updated (${cause instanceof Error ? cause.message : String(cause)}); it still shows the changes as ${undone ? 'applied' : 'undone'}.`,
    };
  }
  host.publish({ type: 'file_changes_updated', sessionId: host.sessionId, changeIds: outcome.changeIds, undone });
  return outcome;
}
