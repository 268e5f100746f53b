import { checkColumnText, checkRecordId, describeValue } from './check-record-id.js';
import { InvalidRecordError } from './invalid-record-error.js';
import { SESSION_MODES, type SessionMode } from './session-mode.js';
import type { NewSession, SessionChanges, SessionRecord } from './session-record.js';
import { laterTimestamp } from './store-clock.js';

/**
 * A checked `NewSession` as the full record to store, created at `timestamp`. Every store calls
 * this, so that they all accept and reject the same input with the same message.
 */
export function prepareNewSession(session: NewSession, timestamp: string): SessionRecord {
  if (typeof session !== 'object' || session === null) throw new InvalidRecordError(`a new session must be an object, got ${describeValue(session)}`);
  const id = session.id === undefined ? globalThis.crypto.randomUUID() : checkRecordId(session.id, 'session id');
  return Object.freeze({
    id,
    workspaceRoots: checkWorkspaceRoots(session.workspaceRoots),
    mode: session.mode === undefined ? 'workspace-write' : checkMode(session.mode),
    agentRole: session.agentRole === undefined ? 'default' : checkRecordId(session.agentRole, 'agent role'),
    createdAt: timestamp,
    updatedAt: timestamp,
    messageCount: 0,
  });
}

/**
 * Checks `changes` (omitted fields stay omitted). Stores check before they open a transaction,
 * then apply the result with `applySessionChanges`.
 */
export function checkSessionChanges(changes: SessionChanges): SessionChanges {
  if (typeof changes !== 'object' || changes === null) throw new InvalidRecordError(`session changes must be an object, got ${describeValue(changes)}`);
  return Object.freeze({
    ...(changes.workspaceRoots === undefined ? {} : { workspaceRoots: checkWorkspaceRoots(changes.workspaceRoots) }),
    ...(changes.mode === undefined ? {} : { mode: checkMode(changes.mode) }),
    ...(changes.agentRole === undefined ? {} : { agentRole: checkRecordId(changes.agentRole, 'agent role') }),
  });
}

/** `record` with checked `changes` applied and `updatedAt` moved to `timestamp` (never backwards). */
export function applySessionChanges(record: SessionRecord, changes: SessionChanges, timestamp: string): SessionRecord {
  return Object.freeze({
    ...record,
    workspaceRoots: changes.workspaceRoots ?? record.workspaceRoots,
    mode: changes.mode ?? record.mode,
    agentRole: changes.agentRole ?? record.agentRole,
    updatedAt: laterTimestamp(record.updatedAt, timestamp),
  });
}

function checkMode(mode: unknown): SessionMode {
  if (!SESSION_MODES.includes(mode as SessionMode)) {
    throw new InvalidRecordError(`session mode must be one of ${SESSION_MODES.join(', ')}; got ${describeValue(mode)}`);
  }
  return mode as SessionMode;
}

const ABSOLUTE_PATH = /^(?:\/|[A-Za-z]:[\\/]|\\\\)/;

function checkWorkspaceRoots(roots: unknown): readonly string[] {
  if (!Array.isArray(roots)) throw new InvalidRecordError(`workspaceRoots must be an array of absolute paths, got ${describeValue(roots)}`);
  return Object.freeze(
    roots.map((root: unknown, index) => {
      const path = checkColumnText(root, `workspaceRoots[${index}]`);
      if (!ABSOLUTE_PATH.test(path)) throw new InvalidRecordError(`workspaceRoots[${index}] ${JSON.stringify(path)} is not an absolute path`);
      return path;
    }),
  );
}
