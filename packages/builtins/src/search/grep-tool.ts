import type { SandboxPolicy } from '@openwork/sandbox';
import { defineTool, type ToolInput } from '@openwork/tools-contract';
import * as z from 'zod';
import type { ToolSessionContext } from '../context/tool-session-context.js';

const inputSchema = z.strictObject({
  pattern: z.string().min(1).describe('Regular expression in Rust regex syntax (RE2 family: no lookaround or backreferences), matched against each line; (?i) for case-insensitive'),
  path: z.string().default('.').describe('Directory or file: absolute, or relative to the working directory; ~ is your home'),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe('Only files matching this glob, relative to path ("*.ts" at any depth, "src/**/*.ts"); a leading "!" excludes'),
  outputMode: z
    .enum(['content', 'files_with_matches', 'count'])
    .default('content'),
});

/** A `grep` call's input, defaults applied. */
export type GrepInput = ToolInput<typeof inputSchema>;

/**
 * §7.6 `grep`: the lines of files under `path` that match `pattern`, bounded (250 lines, 50 per
 * file, 2,000 bytes per line; 250 files in the file modes) with exact totals and the full list in
 * the spill file when anything is omitted; 30 s at most, then "at least" totals. Walks like glob
 * (`.gitignore`, no hidden files, no links, no credential paths) and searches bytes with RE2.
 */
export const grepTool = defineTool<typeof inputSchema, ToolSessionContext, SandboxPolicy>({
  id: 'grep',
  description:
    'Search file contents with a regular expression (Rust regex syntax), in a directory tree or one file. Respects .gitignore and skips hidden and binary files. outputMode "content" (default) returns matching lines grouped by file as "{line}:{text}" (at most 250 lines, 50 per file); "files_with_matches" lists files; "count" gives matches per file. When results are omitted, the last line gives exact totals and where the full list is saved (read it with read).',
  risk: 'read_only',
  inputSchema,
  async execute(input, session, call) {
    // Loaded on the first call (docs/decisions/0002-tools-load-their-call-code-on-first-call.md): RE2, the walker and the search workers stay unloaded
    // in a process that never greps.
    const { runGrepCall } = await import('./run-grep-call.js');
    return runGrepCall(input, session, call);
  },
});
