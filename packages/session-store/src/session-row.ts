import { StoreCorruptError } from './store-corrupt-error.js';
import type { SessionMode } from './session-mode.js';
import type { SessionRecord } from './session-record.js';
import { SESSION_MODES } from './session-mode.js';

/** A session as the SQL stores keep it: their column names, workspace roots as JSON text. */
export interface SessionRow {
  readonly id: string;
  readonly workspace_roots: string;
  readonly mode: string;
  readonly agent_role: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly message_count: number;
}

/** The frozen record of a stored session row. A row that does not decode is `StoreCorruptError`. */
export function decodeSessionRow(row: SessionRow): SessionRecord {
  let workspaceRoots: unknown;
  try {
    workspaceRoots = JSON.parse(row.workspace_roots);
  } catch (error) {
    throw corrupt(row, 'its workspace roots are not valid JSON', error);
  }
  if (!Array.isArray(workspaceRoots) || !workspaceRoots.every((root) => typeof root === 'string')) {
    throw corrupt(row, 'its workspace roots are not a list of paths');
  }
  if (!SESSION_MODES.includes(row.mode as SessionMode)) throw corrupt(row, `its mode ${JSON.stringify(row.mode)} is unknown`);
  return Object.freeze({
    id: row.id,
    workspaceRoots: Object.freeze(workspaceRoots as string[]),
    mode: row.mode as SessionMode,
    agentRole: row.agent_role,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    messageCount: row.message_count,
  });
}

function corrupt(row: SessionRow, why: string, cause?: unknown): StoreCorruptError {
  return new StoreCorruptError(
    `session ${JSON.stringify(row.id)} cannot be read: ${why}; the database was damaged or written by other software`,
    cause === undefined ? undefined : { cause },
  );
}
