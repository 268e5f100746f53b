import type { SandboxPolicy } from '@openwork/sandbox';
import { defineTool, type ToolInput } from '@openwork/tools-contract';
import * as z from 'zod';
import type { ToolSessionContext } from '../context/tool-session-context.js';

const inputSchema = z.strictObject({
  pattern: z.string().min(1).describe('Glob relative to path, e.g. "**/*.rs" (any depth), "src/*.ts", "*.{js,ts}"; a leading "!" lists the files it does not match'),
  path: z.string().default('.').describe('Directory: absolute, or relative to the working directory; ~ is your home'),
});

/** A `glob` call's input, defaults applied. */
export type GlobInput = ToolInput<typeof inputSchema>;

/**
 * §7.7 `glob`: files (never directories) under `path` whose path relative to `path` matches the
 * picomatch `pattern`, the newest 100 by modification time first, with the exact total and the
 * full list (walk order) in the spill file when there are more; the walk, display and limits are
 * grep's.
 */
export const globTool = defineTool<typeof inputSchema, ToolSessionContext, SandboxPolicy>({
  id: 'glob',
  description:
    'Find files by name with a glob pattern relative to path. Respects .gitignore and skips hidden files; lists files only. Returns at most 100 paths, most recently modified first; when there are more, the last line gives the exact total and where the full list is saved.',
  risk: 'read_only',
  inputSchema,
  async execute(input, session, call) {
    // Loaded on the first call (docs/decisions/0002-tools-load-their-call-code-on-first-call.md): the walker and picomatch stay unloaded in a process\nthat never globs.
    const { runGlobCall } = await import('./run-glob-call.js');
    return runGlobCall(input, session, call);
  },
});
