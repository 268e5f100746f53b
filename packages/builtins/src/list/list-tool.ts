import type { SandboxPolicy } from '@openwork/sandbox';
import { defineTool, ToolExecutionError } from '@openwork/tools-contract';
import * as z from 'zod';
import { fileSystemFailure } from '../context/file-system-failure.js';
import { requireCallPolicy } from '../context/require-call-policy.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { listDirectory, listPage } from './list-directory.js';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT } from './list-limits.js';

const inputSchema = z.strictObject({
  path: z.string().default('.').describe('Directory: absolute, or relative to the working directory; ~ is your home'),
  offset: z.number().int().min(0).default(0).describe('0-based index of the first entry to show, in name order'),
  limit: z.number().int().min(1).max(LIST_MAX_LIMIT).default(LIST_DEFAULT_LIMIT).describe('How many entries to show, 1–2000'),
});

/**
 * §7.8 `list`: one level of a directory, sorted by name, hidden entries included, `.gitignore`
 * not read; directories end with `/`. A page stops at `limit` entries or at 31,488 bytes, and
 * says where the next page starts.
 */
export const listTool = defineTool<typeof inputSchema, ToolSessionContext, SandboxPolicy>({
  id: 'list',
  description:
    'List the entries of one directory (not recursive), sorted by name, hidden entries included; directories end with "/". At most `limit` entries (default 200) per call; when more follow, the last line says which offset to continue with.',
  risk: 'read_only',
  inputSchema,
  async execute(input, session, call) {
    const policy = requireCallPolicy(call.sandboxPolicy, 'list');
    if (ToolExecutionError.isInstance(policy)) return policy;
    const resolved = await session.resolvePath(input.path, 'read', 'must-exist', policy, 'list');
    if (!resolved.ok) return resolved.error;
    const directory = resolved.path;
    try {
      const kind = (await session.filesystem.stat(directory.path)).kind;
      if (kind !== 'directory') {
        return new ToolExecutionError('invalid_arguments', `${directory.displayPath} is not a directory. Use read with path "${directory.displayPath}" to see a file.`);
      }
      const names = await listDirectory(session, directory, 'list', call.signal);
      if (!Array.isArray(names)) return names;
      if (names.length === 0) return '[empty directory]';
      if (input.offset >= names.length) {
        return new ToolExecutionError(
          'invalid_arguments',
          `offset ${input.offset} is past the last entry of ${directory.displayPath}, which has ${names.length} ${names.length === 1 ? 'entry' : 'entries'}. List with an offset from 0 to ${names.length - 1}.`,
        );
      }
      const shown = listPage(names, input.offset, input.limit);
      const next = input.offset + shown.length;
      if (next >= names.length) return shown.join('\n');
      return `${shown.join('\n')}\n\n[showing ${shown.length} entries from offset ${input.offset}; more entries available at offset ${next}]`;
    } catch (error) {
      return fileSystemFailure(error);
    }
  },
});
