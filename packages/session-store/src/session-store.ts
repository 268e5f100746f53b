import type {
  AgentRunCreated,
  AgentRunFinish,
  AgentRunLease,
  AgentRunRecord,
  ClaimAgentRunsOptions,
  ListMailboxOptions,
  MailboxEntry,
  NewAgentRun,
} from './agent-run.js';
import type { FileChangeRecord, UndoneUpdate } from './file-change-record.js';
import type { NewSessionPlan, SessionPlan } from './session-plan.js';
import type { BackgroundTaskRecord, NewBackgroundTaskRecord } from './background-task-record.js';
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

  // Sub-agents (architecture §4): runs, their leases and the parents' completion mailboxes. A run
  // belongs to its parent session and to its child session: deleting either deletes the run, and
  // deleting the parent deletes its mailbox. Every change below is compare-and-set under the
  // store's write lock, so that of several hosts exactly one wins.

  /**
   * Creates the child session and its run (state `queued`) in one transaction. With an
   * `idempotencyKey` already used under the same parent, creates nothing and returns that run
   * with `created: false`. `SessionNotFoundError` when the parent does not exist,
   * `SessionExistsError` when the agent id is taken by a session.
   */
  createAgentRun(run: NewAgentRun): Promise<AgentRunCreated>;

  /** The run, or `undefined`. A session is a child exactly when a run has its id. */
  getAgentRun(agentId: string): Promise<AgentRunRecord | undefined>;

  /** The parent's runs, oldest first. `SessionNotFoundError` when the parent does not exist. */
  listAgentRuns(parentSessionId: string): Promise<AgentRunRecord[]>;

  /**
   * Takes (or renews) the run's lease for `owner` until now + `leaseMs`, and sets it `running`.
   * `undefined` when the run has ended or another host's lease has not expired. A new holder
   * counts one more `attempt`. `AgentRunNotFoundError` for an unknown id.
   */
  claimAgentRun(agentId: string, lease: AgentRunLease): Promise<AgentRunRecord | undefined>;

  /**
   * Takes up to `limit` runs that no live lease holds (never started, or their host stopped
   * renewing), oldest first, for `owner`. Hosts calling it at once never get the same run.
   */
  claimAgentRuns(options: ClaimAgentRunsOptions): Promise<AgentRunRecord[]>;

  /** Gives up `owner`'s lease (the run stays `running` for another host to take). `false` when `owner` did not hold it. */
  releaseAgentRun(agentId: string, owner: string): Promise<boolean>;

  /**
   * Ends the run's round with its result and adds the result to the parent's mailbox, in one
   * transaction. `undefined` (and nothing written) when the round has ended already or `owner` no
   * longer holds the lease: each round has one result, delivered once.
   */
  finishAgentRun(agentId: string, finish: AgentRunFinish): Promise<AgentRunRecord | undefined>;

  /** Starts the next round (`queued`) with a follow-up message. `undefined` while the current round has not ended. */
  reopenAgentRun(agentId: string, prompt: string): Promise<AgentRunRecord | undefined>;

  /** The parent's mailbox entries in order. `SessionNotFoundError` when the session does not exist. */
  listMailbox(parentSessionId: string, options?: ListMailboxOptions): Promise<MailboxEntry[]>;

  /** Marks entries delivered; returns the sequences that this call marked (not those marked before). */
  markMailboxDelivered(parentSessionId: string, sequences: readonly number[]): Promise<number[]>;

  /** The session's plan (spec §3 `update_plan`), or `undefined` before the first. */
  getPlan(sessionId: string): Promise<SessionPlan | undefined>;

  /** Replaces the session's plan. `InvalidRecordError` when it breaks the plan rules (`PlanRules`). */
  setPlan(sessionId: string, plan: NewSessionPlan): Promise<SessionPlan>;

  /**
   * Background bash: saves a background task of the session as its host knows it now (insert or replace
   * by task id). A session keeps the `MAX_STORED_BACKGROUND_TASKS` most recently started; saving
   * one more forgets the oldest. `SessionNotFoundError` when the session does not exist.
   */
  saveBackgroundTask(sessionId: string, task: NewBackgroundTaskRecord): Promise<BackgroundTaskRecord>;

  /** The session's background task records, oldest start first. */
  listBackgroundTasks(sessionId: string): Promise<BackgroundTaskRecord[]>;

  /** Releases the database. Later calls throw `StoreClosedError`. Calling it twice is harmless. */
  close(): Promise<void>;
}
