/** §7.9 input limit (the Denova peer's shell limit, architecture §8): the command text, in UTF-8 bytes. */
export const MAX_COMMAND_BYTES = 1024 * 1024;

/** §7.9 / §9: `timeoutMs` when the call gives none. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The largest `timeoutMs`; larger values are clamped to it. §7.9 says 120,000; the
 * spec's proposed "bash 的 workdir、description 与超时" raises it to 10 minutes for foreground calls
 * (docs/decisions/0028-bash-choices-where-the-spec-is-silent.md).
 */
export const MAX_TIMEOUT_MS = 600_000;

/** §7.9: the smallest `timeoutMs`; smaller values are clamped to it. */
export const MIN_TIMEOUT_MS = 1;

/** §7.9: every call is a new `/bin/bash -c <command>`; nothing else is ever started. */
export const BASH_PATH = '/bin/bash';
