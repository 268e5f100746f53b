/**
 * What became of one file of a grep (§7.6): searched (matches count), binary (a NUL byte in its
 * first 64 KiB), a line over 64 MiB, or unreadable (gone, no permission, swapped for a link):
 * the last three are skipped and count no match.
 */
export type FileOutcome = 'searched' | 'binary' | 'long-line' | 'unreadable';
