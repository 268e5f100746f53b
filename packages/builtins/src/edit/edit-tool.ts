import type { SandboxPolicy } from '@openwork/sandbox';
import { defineTool, type ToolInput } from '@openwork/tools-contract';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { inspectWrite } from '../escalation/inspect-write.js';
import { editInputSchema } from './edit-input.js';

/** An `edit` call's input, defaults applied. */
export type EditInput = ToolInput<typeof editInputSchema>;

/**
 * §7.3 `edit`: replace one exact occurrence of `oldString` (or all, with `replaceAll`) in a file
 * the model has read in its current state (§7.4), or create a file when `oldString` is empty.
 * Under the path's write lock: read, check the observation table, compute, write atomically with
 * a compare just before the rename. A CRLF file stays CRLF; the mode is kept. One-line summary
 * with the new line range; the diff only goes into the `file_change` artifact (§8.4).
 *
 * Beyond the spec (docs/decisions/0020-edit-several-replacements-all-or-nothing.md): `edits` (1–64 entries) instead of the single form, all matched
 * against one snapshot and written at once or not at all; tolerant matching when the exact step
 * finds nothing (line endings, trailing whitespace, an indentation shift of a block, typography —
 * in that order, each needing exactly one place); errors that show the closest text and say what
 * differs, and that notice a repeat of the same failed call.
 */
export const editTool = defineTool<typeof editInputSchema, ToolSessionContext, SandboxPolicy>({
  id: 'edit',
  description:
    'Replace text in a file. Send oldString and newString for one replacement, or edits for several in the same file: all are matched against the file as it is now and applied together, or none is. oldString must match the file exactly (whitespace and indentation included) and occur once, unless replaceAll is true; when it matches nothing, differences in line endings, trailing whitespace, the indentation of a whole block, or typographic quotes and dashes are tolerated if exactly one place still matches, and the result says so. The file must have been read (with read) in its current state; consecutive edits of the same file need no new read. Returns the changed line range.',
  risk: 'workspace_mutation',
  inputSchema: editInputSchema,
  inspect: (input, session) => inspectWrite(input.filePath, input, session),
  async execute(input, session, call) {
    // Loaded on the first call (docs/decisions/0002-tools-load-their-call-code-on-first-call.md): the matcher and the file-change engine stay\nunloaded until an edit runs.
    const { runEditCall } = await import('./run-edit-call.js');
    return runEditCall(input, session, call);
  },
});
