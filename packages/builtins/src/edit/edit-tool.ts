import type { SandboxPolicy } from '@openwork/sandbox';
import { defineTool, ToolExecutionError, type ToolExecutionContext } from '@openwork/tools-contract';
import * as z from 'zod';
import type { CheckedPath } from '../context/checked-path.js';
import { requireCallPolicy } from '../context/require-call-policy.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { escalationInputShape, requireJustification } from '../escalation/escalation-parameters.js';
import { inspectWrite } from '../escalation/inspect-write.js';
import { commitTextChange } from '../text/commit-text-change.js';
import { formatCount } from '../text/format-bytes.js';
import { loadTarget } from '../text/load-text-file.js';
import { prepareWriteTarget } from '../text/prepare-write-target.js';
import { MAX_TEXT_FILE_BYTES } from '../text/text-limits.js';
import { applyReplacements } from './apply-replacements.js';
import { findReplacements } from './find-replacements.js';

const inputSchema = z
  .strictObject({
    filePath: z.string().describe('Absolute path of the file, or relative to the working directory; ~ is your home directory'),
    oldString: z
      .string()
      .describe('The exact text to replace, copied from the file (without the line numbers read shows). An empty string creates a new file'),
    newString: z.string().describe('The replacement text, or the whole content of a new file; at most 1 MiB'),
    replaceAll: z.boolean().default(false).describe('Replace every occurrence of oldString instead of exactly one'),
    ...escalationInputShape,
  })
  .superRefine(requireJustification);

type EditInput = z.output<typeof inputSchema>;

/**
 * §7.3 `edit`: replace one exact occurrence of `oldString` (or all, with `replaceAll`) in a file
 * the model has read in its current state (§7.4), or create a file when `oldString` is empty.
 * Under the path's write lock: read, check the observation table, compute, write atomically with
 * a compare just before the rename. A CRLF file stays CRLF; the mode is kept. One-line summary
 * with the new line range; the diff only goes into the `file_change` artifact (§8.4).
 */
export const editTool = defineTool<typeof inputSchema, ToolSessionContext, SandboxPolicy>({
  id: 'edit',
  description:
    'Replace text in a file: oldString must match the file exactly (whitespace and indentation included) and occur once, unless replaceAll is true. The file must have been read (with read) in its current state; consecutive edits of the same file need no new read. An empty oldString creates a new file with newString as its content. Returns one summary line with the changed line range.',
  risk: 'workspace_mutation',
  inputSchema,
  inspect: (input, session) => inspectWrite(input.filePath, input, session),
  async execute(input, session, call) {
    const policy = requireCallPolicy(call.sandboxPolicy, 'edit');
    if (ToolExecutionError.isInstance(policy)) return policy;
    const newBytes = Buffer.byteLength(input.newString, 'utf8');
    if (newBytes > MAX_TEXT_FILE_BYTES) {
      return new ToolExecutionError(
        'invalid_arguments',
        `newString is ${formatCount(newBytes)} bytes; edit takes at most ${formatCount(MAX_TEXT_FILE_BYTES)} bytes (1 MiB). Make smaller edits.`,
      );
    }
    if (input.oldString === input.newString) {
      return new ToolExecutionError('invalid_arguments', 'oldString and newString are identical, so the edit would change nothing. Send the text to put in its place as newString.');
    }
    if (input.oldString === '') return createFile(input, session, call, policy);
    return replaceText(input, session, call, policy);
  },
});

/** Empty `oldString`: create a new file; an existing target is refused (§7.3). */
async function createFile(input: EditInput, session: ToolSessionContext, call: ToolExecutionContext<SandboxPolicy>, policy: SandboxPolicy) {
  const resolved = await prepareWriteTarget(session, input.filePath, policy, 'edit');
  if (!resolved.ok) return resolved.error;
  const target = resolved.path;
  return session.writeLocks.withLock(
    target.path,
    async () => {
      const before = await loadTarget(session, target, 'edit', call.signal);
      if (before.exists) {
        return new ToolExecutionError(
          'invalid_arguments',
          `${target.displayPath} already exists; an empty oldString only creates new files. To change it, read it and send the text to replace as oldString, or replace the whole file with write.`,
        );
      }
      const change = await commitTextChange(session, target, before, new TextEncoder().encode(input.newString), 'edit', call.callId, call.signal);
      return { text: `Created ${target.displayPath} (+${change.additions})`, artifacts: [change.artifact] };
    },
    { signal: call.signal },
  );
}

/** Non-empty `oldString`: replace in an existing file. */
async function replaceText(input: EditInput, session: ToolSessionContext, call: ToolExecutionContext<SandboxPolicy>, policy: SandboxPolicy) {
  const resolved = await session.resolvePath(input.filePath, 'write', 'must-exist', policy, 'edit');
  if (!resolved.ok) return resolved.error;
  const target = resolved.path;
  return session.writeLocks.withLock(
    target.path,
    async () => {
      const before = await loadTarget(session, target, 'edit', call.signal);
      if (!before.exists) return missingFile(target);
      const rejection = session.observations.check(target, before.sha256);
      if (rejection !== undefined) return new ToolExecutionError('execution_failed', rejection.message);

      const match = findReplacements({ content: before.text, oldString: input.oldString, newString: input.newString, replaceAll: input.replaceAll });
      if (!match.ok) {
        return match.reason === 'not_found'
          ? new ToolExecutionError(
              'invalid_arguments',
              `oldString was not found in ${target.displayPath}. It must match the file exactly, including whitespace, indentation and line breaks, without the line numbers read shows. Read the file again and copy the text to replace.`,
            )
          : new ToolExecutionError(
              'invalid_arguments',
              `oldString occurs ${match.occurrences} times in ${target.displayPath}. Include more of the surrounding lines so that it occurs once, or set replaceAll to true to replace every occurrence.`,
            );
      }
      const applied = applyReplacements(before.text, match.replacements);
      const after = new TextEncoder().encode(applied.content);
      if (after.length > MAX_TEXT_FILE_BYTES) {
        return new ToolExecutionError(
          'invalid_arguments',
          `The edited ${target.displayPath} would be ${formatCount(after.length)} bytes; edit keeps files at most ${formatCount(MAX_TEXT_FILE_BYTES)} bytes (1 MiB). Make the file smaller, or split it.`,
        );
      }
      const change = await commitTextChange(session, target, before, after, 'edit', call.callId, call.signal);
      const counts = `(+${change.additions} -${change.deletions})`;
      if (match.replacements.length > 1) {
        return { text: `Replaced ${match.replacements.length} occurrences in ${target.displayPath} ${counts}`, artifacts: [change.artifact] };
      }
      const { start, end } = applied.firstRange;
      const range = start === end ? `${start}` : `${start}-${end}`;
      return { text: `Edited ${target.displayPath}:${range} ${counts}`, artifacts: [change.artifact] };
    },
    { signal: call.signal },
  );
}

function missingFile(target: CheckedPath): ToolExecutionError {
  return new ToolExecutionError(
    'execution_failed',
    `${target.displayPath} does not exist (it was removed just now). To create it, call edit with an empty oldString, or use write.`,
  );
}
