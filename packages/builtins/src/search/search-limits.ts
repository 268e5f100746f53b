// §9 limits of grep and glob. Fixed: neither tool takes a maxResults-like parameter (§7.6).

/** §9 `grep.rs MAX_LINES`: matching lines shown in content mode, over all files. */
export const GREP_MAX_LINES = 250;
/** §9 `MAX_LINES_PER_FILE`: matching lines shown of one file. */
export const GREP_MAX_LINES_PER_FILE = 50;
/** §9 `MAX_LINE_BYTES`: bytes shown of one matching line before the cut marker. */
export const GREP_MAX_LINE_BYTES = 2000;
/** §9 `MAX_FILES`: files listed in files_with_matches and count modes. */
export const GREP_MAX_FILES = 250;
/** §9 `glob.rs MAX_RESULTS`. */
export const GLOB_MAX_RESULTS = 100;
/** §9 `scan.rs SCAN_TIMEOUT`: grep and glob stop and report "at least" totals. */
export const SCAN_TIMEOUT_MS = 30_000;
/** §7.6: a file with a longer line is skipped. */
export const MAX_SEARCH_LINE_BYTES = 64 * 1024 * 1024;
/**
 * A NUL byte in this first part of a file makes it binary and skips it whole; a NUL further on
 * stops the search there (§7.6 "按二进制文件停止搜索"), as ripgrep does with its first buffer.
 */
export const BINARY_PROBE_BYTES = 64 * 1024;
/** §7.6 marker after a cut line (the same wording as read's, in bytes). */
export const LINE_CUT_MARKER = `... (line truncated to ${GREP_MAX_LINE_BYTES} bytes)`;
