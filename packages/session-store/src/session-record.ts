import type { SessionMode } from './session-mode.js';

/** A stored session (architecture §4). Plain, frozen, JSON-serialisable data. */
export interface SessionRecord {
  readonly id: string;
  /** Absolute paths of the workspace roots, in the order given. */
  readonly workspaceRoots: readonly string[];
  readonly mode: SessionMode;
  /** The agent role whose toolset the session uses (`default`, `explorer`, …). */
  readonly agentRole: string;
  /** ISO 8601 UTC with milliseconds, e.g. `2025-01-31T12:00:00.000Z`. */
  readonly createdAt: string;
  /** Last change to the session, its messages or their artifacts. Never moves backwards. */
  readonly updatedAt: string;
  /** How many messages the session has; the last message's `sequence`. */
  readonly messageCount: number;
}

/** Input of `createSession`. */
export interface NewSession {
  /** Your own id (1–200 characters, no control characters); a random UUID when omitted. */
  readonly id?: string;
  readonly workspaceRoots: readonly string[];
  /** Defaults to `workspace-write` (architecture §3.1). */
  readonly mode?: SessionMode;
  /** Defaults to `default`. */
  readonly agentRole?: string;
}

/** Input of `updateSession`: the fields to change; omitted fields keep their value. */
export interface SessionChanges {
  readonly workspaceRoots?: readonly string[];
  readonly mode?: SessionMode;
  readonly agentRole?: string;
}

/** Options of `listSessions`. */
export interface ListSessionsOptions {
  /** At most this many sessions (a positive integer); all when omitted. */
  readonly limit?: number;
}
