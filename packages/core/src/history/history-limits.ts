/** Default and largest number of messages one `conversation_history` call shows. */
export const HISTORY_DEFAULT_LIMIT = 20;
export const HISTORY_MAX_LIMIT = 50;

/** Code points of one message's text when several are shown; ask for one message to see more. */
export const HISTORY_MESSAGE_CHARS = 2000;

/** Code points of a tool call's arguments in a listing. */
export const HISTORY_ARGUMENTS_CHARS = 300;

/**
 * Bytes of listed messages per call: below the 32,000-byte result limit (§8.2, §9) with room for
 * the footer, so the tool bounds its own result and the fallback cut never has to.
 */
export const HISTORY_RESULT_BYTES = 24_000;
