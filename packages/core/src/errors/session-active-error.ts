import { CoreError } from './core-error.js';

/** What keeps a session busy. */
export type SessionActivity = 'turn' | 'tool_call' | 'file_changes';

/**
 * §8.4 `SessionActive`: the session is busy — a model turn, a tool call or an undo/reapply is
 * running — and the request would interleave with it. Wait for it to end (or cancel the turn) and
 * try again.
 */
export class SessionActiveError extends CoreError {
  readonly sessionId: string;
  readonly activity: SessionActivity;

  constructor(sessionId: string, activity: SessionActivity, attempted: string) {
    super('session_active', `Session ${JSON.stringify(sessionId)} is busy with ${describeActivity(activity)}, so ${attempted} cannot start now. Wait until it ends (or cancel the turn) and try again.`);
    this.name = 'SessionActiveError';
    this.sessionId = sessionId;
    this.activity = activity;
  }
}

function describeActivity(activity: SessionActivity): string {
  switch (activity) {
    case 'turn':
      return 'a model turn';
    case 'tool_call':
      return 'a tool call';
    case 'file_changes':
      return 'an undo or reapply';
  }
}
