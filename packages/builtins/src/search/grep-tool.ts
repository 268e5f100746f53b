import type { SandboxPolicy } from '@openwork/sandbox';
import { defineTool, ToolExecutionError } from '@openwork/tools-contract';
import * as z from 'zod';
import { fileSystemFailure } from '../context/file-system-failure.js';
import { requireCallPolicy } from '../context/require-call-policy.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { compileSearchPattern } from './compile-search-pattern.js';
import { grepFooter, layoutGrepResult } from './format-grep-result.js';
import { IgnoreRules } from './ignore-rules.js';
import { loadIgnoreRules } from './load-ignore-rules.js';
import { runGrep, SearchWorkerFailure } from './run-grep.js';
import { ScanLimit } from './scan-limit.js';
import { compileSearchGlob } from './search-glob.js';

const inputSchema = z.strictObject({
  pattern: z.string().min(1).describe('Regular expression in Rust regex syntax (RE2 family: no lookaround or backreferences), matched against each line; (?i) for case-insensitive'),
  path: z.string().default('.').describe('The directory or file to search: absolute, or relative to the working directory; ~ is your home directory'),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe('Only search files matching this glob, relative to path (e.g. "*.ts" for any depth, "src/**/*.ts", "/*.ts" only at the top); a leading "!" excludes, e.g. "!*.min.js"'),
  outputMode: z
    .enum(['content', 'files_with_matches', 'count'])
    .default('content')
    .describe('content: matching lines grouped by file; files_with_matches: file paths; count: matches per file'),
});

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
    const policy = requireCallPolicy(call.sandboxPolicy, 'grep');
    if (ToolExecutionError.isInstance(policy)) return policy;
    const compiled = compileSearchPattern(input.pattern);
    if (!compiled.ok) return new ToolExecutionError('invalid_arguments', compiled.message);
    const limit = new ScanLimit(call.signal, call.deadline);
    const resolved = await session.resolvePath(input.path, 'read', 'must-exist', policy, 'grep');
    if (!resolved.ok) return resolved.error;
    const root = resolved.path;
    let accept: ((relativePath: string) => boolean) | undefined;
    if (input.glob !== undefined) {
      try {
        // §7.6's filter, like `rg -g`: a name at any depth without `/`, anchored by a leading `/`, `!` negates.
        accept = compileSearchGlob(input.glob, { nameAtAnyDepth: true, root: root.path });
      } catch (error) {
        return new ToolExecutionError('invalid_arguments', `The glob ${JSON.stringify(input.glob)} is not valid: ${error instanceof Error ? error.message : String(error)}.`);
      }
    }
    const list = session.spill?.openWriter(call.callId);
    try {
      const kind = (await session.filesystem.stat(root.path)).kind;
      if (kind !== 'directory' && kind !== 'file') {
        return new ToolExecutionError('invalid_arguments', `${root.displayPath} is neither a directory nor a regular file; grep searches those.`);
      }
      const rootIsDirectory = kind === 'directory';
      const tally = await runGrep({
        session,
        policy,
        root,
        rootIsDirectory,
        rules: rootIsDirectory ? await loadIgnoreRules(session, root.path, policy) : IgnoreRules.none,
        spec: compiled.spec,
        matcher: compiled.matcher,
        mode: input.outputMode,
        accept,
        limit,
        signal: call.signal,
        list,
      });
      if (limit.cancelled) {
        await list?.discard();
        return new ToolExecutionError('cancelled', 'grep was cancelled.');
      }
      const layout = layoutGrepResult(tally);
      const spill = layout.omitted ? await list?.finish() : (await list?.discard(), undefined);
      const footer = grepFooter({
        layout,
        tally,
        timedOut: limit.timedOut,
        limitMilliseconds: limit.milliseconds,
        spill,
        spillMaxBytes: session.spill?.maxBytes ?? 0,
      });
      if (tally.matchingFiles === 0) {
        const none = `No matches for /${input.pattern}/ in ${root.displayPath}`;
        return footer === '' ? none : `${none}\n${footer}`;
      }
      return footer === '' ? layout.body : `${layout.body}\n\n${footer}`;
    } catch (error) {
      await list?.discard();
      if (error instanceof SearchWorkerFailure) return new ToolExecutionError('execution_failed', error.message);
      return fileSystemFailure(error);
    }
  },
});
