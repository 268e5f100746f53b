import type { FileChangeArtifact } from './file-change-artifact.js';
import type { FileChangeRecord } from './file-change-record.js';
import type { MessageRow } from './message-row.js';
import { StoreCorruptError } from './store-corrupt-error.js';
import type { StoredMessage } from './stored-message.js';
import { deepFreeze } from './deep-freeze.js';

/**
 * The stored message of `row`, frozen. A body that does not decode means the database was
 * damaged or written by something else: `StoreCorruptError`, naming the message.
 */
export function decodeStoredMessage(row: MessageRow): StoredMessage {
  const body = parseBody(row);
  let message: Record<string, unknown>;
  switch (row.role) {
    case 'user':
      message = { sessionId: row.sessionId, id: row.id, sequence: row.sequence, createdAt: row.createdAt, role: 'user', text: body['text'] };
      break;
    case 'assistant':
      message = {
        sessionId: row.sessionId,
        id: row.id,
        sequence: row.sequence,
        createdAt: row.createdAt,
        role: 'assistant',
        text: body['text'],
        toolCalls: body['toolCalls'],
      };
      break;
    case 'tool':
      message = {
        sessionId: row.sessionId,
        id: row.id,
        sequence: row.sequence,
        createdAt: row.createdAt,
        role: 'tool',
        toolCallId: body['toolCallId'],
        toolId: body['toolId'],
        result: body['result'],
      };
      break;
    default:
      throw corrupt(row, `unknown role ${JSON.stringify(row.role)}`);
  }
  if (body['metadata'] !== undefined) message['metadata'] = body['metadata'];
  return deepFreeze(message as unknown as StoredMessage);
}

/** The file change stored as artifact `artifactIndex` of the tool message `row` (§8.4). */
export function decodeFileChange(row: MessageRow, artifactIndex: number): FileChangeRecord {
  const body = parseBody(row);
  const result = body['result'] as { artifacts?: unknown } | undefined;
  const artifact = Array.isArray(result?.artifacts) ? (result.artifacts[artifactIndex] as FileChangeArtifact | undefined) : undefined;
  const change = artifact?.change as FileChangeArtifact['change'] | undefined;
  if (row.role !== 'tool' || artifact === undefined || typeof change !== 'object' || change === null || typeof change.changeId !== 'string') {
    throw corrupt(row, `artifact ${artifactIndex} is not a file change`);
  }
  return deepFreeze({
    sessionId: row.sessionId,
    changeId: change.changeId,
    path: change.path,
    undone: change.undone,
    toolCallId: body['toolCallId'] as string,
    messageId: row.id,
    messageSequence: row.sequence,
    artifactIndex,
    artifact,
  });
}

/**
 * `body` with `change.undone` of artifact `artifactIndex` set (§8.4: after an undo or reapply, the
 * stored artifact says so). Everything else, key order included, stays as it was.
 */
export function rewriteArtifactUndone(row: MessageRow, artifactIndex: number, undone: boolean): string {
  const body = parseBody(row);
  const artifacts = (body['result'] as { artifacts?: unknown } | undefined)?.artifacts;
  const artifact = Array.isArray(artifacts) ? (artifacts[artifactIndex] as Record<string, unknown> | undefined) : undefined;
  const change = artifact?.['change'] as Record<string, unknown> | null | undefined;
  if (change === undefined || change === null || typeof change !== 'object') {
    throw corrupt(row, `artifact ${artifactIndex} is not a file change`);
  }
  change['undone'] = undone;
  return JSON.stringify(body);
}

function parseBody(row: MessageRow): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(row.body);
  } catch (error) {
    throw corrupt(row, 'its content is not valid JSON', error);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw corrupt(row, 'its content is not a JSON object');
  return body as Record<string, unknown>;
}

function corrupt(row: MessageRow, why: string, cause?: unknown): StoreCorruptError {
  return new StoreCorruptError(
    `message ${row.sequence} (${JSON.stringify(row.id)}) of session ${JSON.stringify(row.sessionId)} cannot be read: ${why}; the database was damaged or written by other software`,
    cause === undefined ? undefined : { cause },
  );
}
