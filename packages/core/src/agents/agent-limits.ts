/** Operations in one `agent_send` (Denova: each succeeds or fails on its own). */
export const MAX_AGENT_OPERATIONS = 32;
/** Targets of one `agent_await`. */
export const MAX_AWAIT_TARGETS = 32;
/** The longest `agent_await` wait: ten minutes. */
export const MAX_AWAIT_MS = 600_000;
/** Characters of a delegate's prompt or a follow-up message. */
export const MAX_AGENT_PROMPT = 100_000;
/** Characters of a child's result in the mailbox message; the whole result is in `agent_await`. */
export const MAILBOX_TEXT_CHARS = 8_000;
/** Children of one parent that have not ended: a model that delegates in a loop is stopped here. */
export const MAX_OPEN_CHILDREN = 64;
