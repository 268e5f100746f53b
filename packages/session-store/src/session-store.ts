import type { FileChangeRecord, UndoneUpdate } from './file-change-record.js';
import type { LoadMessagesOptions, NewMessage } from './new-message.js';
import type { ListSessionsOptions, NewSession, SessionChanges, SessionRecord } from './session-record.js';
import type { StoredMessage } from './stored-message.js';

/**
 * Where core keeps sessions and their messages, with each tool result's artifacts inside its
 * tool message, so that a user can see and undo a change after a restart (§8.4, architecture
 * §4). Core depends on this interface only; the embedded SQLite store and the PostgreSQL store
 * implement it, and every implementation passes the same contract suite
 * (`@openwork/session-store/contract`).
 *
 * Every method is safe to call concurrently, from several handles on the same database (processes,
 * hosts): a message and its artifacts are written in one transaction, messages of a session get
 * gapless sequence numbers in commit order, and `undone` updates are compare-and-set.
 *
 * Errors are thrown as `SessionStoreError` subclasses (check them with `isInstance`); nothing is
 * written when a method throws, except that a lost connection during the commit itself leaves the
 * outcome unknown (retry with the same message id: the retry is idempotent).
 */
export interface SessionStore {
  /** Creates a session. `SessionExistsError` when the id is taken, `InvalidRecordError` on bad input. */
  createSession(session: NewSession): Promise<SessionRecord>;

  /** The session, or `undefined` when there is none with this id. */
  getSession(sessionId: string): Promise<SessionRecord | undefined>;

  /** Sessions, most recently updated first (ties by id). */
  listSessions(options?: ListSessionsOptions): Promise<SessionRecord[]>;

  /** Changes the mode, role or roots of a session. `SessionNotFoundError` when it does not exist. */
  updateSession(sessionId: string, changes: SessionChanges): Promise<SessionRecord>;

  /**
   * Deletes the session, its messages and their artifacts. `true` when it existed. Core also
   * deletes the session's spill directory (§8.2); the store only holds records.
   */
  deleteSession(sessionId: string): Promise<boolean>;

  /**
   * Appends a message at the end of the session, with its artifacts, in one transaction, and
   * returns it as stored (with its `sequence`). Rules: a tool message answers a call of an earlier
   * assistant message, once; tool call ids and change ids are unique in the session; a message id
   * is unique in the session, and appending the same id with the same content returns the stored
   * message (idempotent retry).
   */
  appendMessage(sessionId: string, message: NewMessage): Promise<StoredMessage>;

  /** The session's messages in order. `SessionNotFoundError` when the session does not exist. */
  loadMessages(sessionId: string, options?: LoadMessagesOptions): Promise<StoredMessage[]>;

  /** The session's file changes (§8.4), in message order. `SessionNotFoundError` when the session does not exist. */
  listFileChanges(sessionId: string): Promise<FileChangeRecord[]>;

  /**
   * Sets `undone` on file changes after an undo or reapply (§8.4), all or none, in the stored
   * artifacts too. Compare-and-set: every change must be in the opposite state, otherwise
   * `UndoneConflictError` and nothing changes — of two concurrent undos of one change, exactly
   * one wins. `ChangeNotFoundError` for an unknown change id. Returns the updated changes, in the
   * order of `changeIds`.
   */
  setUndone(sessionId: string, update: UndoneUpdate): Promise<FileChangeRecord[]>;

  /** Releases the database. Later calls throw `StoreClosedError`. Calling it twice is harmless. */
  close(): Promise<void>;
}
