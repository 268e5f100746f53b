import type { SandboxPolicy } from '@openwork/sandbox';
import { defineTool, type ToolInput } from '@openwork/tools-contract';
import * as z from 'zod';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { escalationInputShape, requireJustification } from '../escalation/escalation-parameters.js';
import { inspectWrite } from '../escalation/inspect-write.js';

const inputSchema = z
  .strictObject({
    path: z.string().describe('File path: absolute, or relative to the working directory; ~ is your home'),
    content: z.string().describe('The complete new content of the file, at most 1 MiB'),
    ...escalationInputShape,
  })
  .superRefine(requireJustification);

/** A `write` call's input, defaults applied. */
export type WriteInput = ToolInput<typeof inputSchema>;

/**
 * §7.2 `write`: create a file (and its missing parent directories), or replace an existing one
 * the model has read in its current state (§7.4). The write is atomic and compares the file with
 * what was read just before committing; the file's mode is kept. One-line summary; a
 * `file_change` artifact when the content changed (§8.4).
 */
export const writeTool = defineTool<typeof inputSchema, ToolSessionContext, SandboxPolicy>({
  id: 'write',
  description:
    'Create a file, or replace the whole content of an existing file, with `content` (at most 1 MiB of UTF-8 text). Missing parent directories are created. An existing file must have been read (with read) in its current state first. To change part of a file, prefer edit.',
  risk: 'workspace_mutation',
  inputSchema,
  inspect: (input, session) => inspectWrite(input.path, input, session),
  async execute(input, session, call) {
    // Loaded on the first call (docs/decisions/0002-tools-load-their-call-code-on-first-call.md): the file-change engine stays unloaded until a\nwrite or edit runs.
    const { runWriteCall } = await import('./run-write-call.js');
    return runWriteCall(input, session, call);
  },
});
