import type { MessageRole } from './stored-message.js';

/** A message as a store keeps it: the columns every store has, whatever its schema. */
export interface MessageRow {
  readonly sessionId: string;
  readonly id: string;
  readonly sequence: number;
  readonly role: MessageRole;
  /** `PreparedMessage.body`, with `undone` rewritten by `rewriteArtifactUndone`. */
  readonly body: string;
  readonly createdAt: string;
}
