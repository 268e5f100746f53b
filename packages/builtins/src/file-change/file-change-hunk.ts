/**
 * One hunk of a unified diff with three lines of context (§8.4), in the shape of the `diff`
 * package's `StructuredPatchHunk`, so `applyPatch`/`formatPatch` of that package accept it.
 *
 * `lines` hold one entry per line: a prefix (`' '` context, `'-'` removed, `'+'` added) and the line
 * without its `\n` (a `\r` of a CRLF line stays). A line that ends the file without a newline is
 * followed by the entry `\ No newline at end of file`, as in `git diff`. Starts are 1-based; a side
 * with no lines has start = the line before the hunk (0 at the top), as in unified diff.
 */
export interface FileChangeHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly string[];
}

/** The marker line after a line that has no newline at the end of the file. */
export const NO_NEWLINE_AT_END_OF_FILE = '\\ No newline at end of file';
