import { StaleContentError } from '@openwork/fs-backend';
import { ToolExecutionError, type ToolArtifact } from '@openwork/tools-contract';
import type { CheckedPath } from '../context/checked-path.js';
import { fileSystemFailure } from '../context/file-system-failure.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { createFileChange } from '../file-change/create-file-change.js';
import type { TargetState } from './load-text-file.js';

/** What a committed write or edit produced. */
export interface CommittedChange {
  /** The `file_change` artifact (§8.4) as the result carries it. */
  readonly artifact: ToolArtifact;
  readonly additions: number;
  readonly deletions: number;
}

/**
 * The last steps of write and edit (§7.2, §7.3, §7.4, §8.4), under the path's write lock: the
 * atomic write in the checked directory, compared with what was read just before the rename (a
 * file that changed meanwhile is not overwritten: `file changed while <tool> was being prepared`),
 * the new hash recorded in the observation table, and the `file_change` artifact.
 */
export async function commitTextChange(
  session: ToolSessionContext,
  target: CheckedPath,
  before: TargetState,
  after: Uint8Array,
  tool: string,
  callId: string,
  signal: AbortSignal,
): Promise<CommittedChange> {
  let written;
  try {
    written = await session.filesystem.atomicWrite(target.path, after, { expectedHash: before.exists ? before.sha256 : null, signal });
  } catch (error) {
    if (StaleContentError.isInstance(error)) {
      const found = before.exists ? 'its content changed' : 'a file appeared there';
      throw new ToolExecutionError(
        'execution_failed',
        `file changed while ${tool} was being prepared: ${target.displayPath} was not overwritten because ${found} (by another program or a command). Read it again, then retry.`,
      );
    }
    throw fileSystemFailure(error);
  }
  session.observations.record(target, written.sha256);
  // A running background task stages its writes on an overlay: it sees this change only if shown.
  await session.backgroundTasks.reflect([target.path]);
  const artifact = createFileChange({
    changeId: callId,
    path: target.input,
    realPath: target.path,
    displayPath: target.displayPath,
    before: before.exists ? before.bytes : null,
    after,
    beforeHash: before.exists ? before.sha256 : null,
    afterHash: written.sha256,
    ...(before.exists ? { mode: before.mode } : {}),
  });
  return {
    artifact: { kind: artifact.kind, change: artifact.change },
    additions: artifact.change.additions,
    deletions: artifact.change.deletions,
  };
}
