import type { SandboxPolicy } from '@openwork/sandbox';
import { defineTool, ToolExecutionError } from '@openwork/tools-contract';
import * as z from 'zod';
import { requireCallPolicy } from '../context/require-call-policy.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { escalationInputShape, requireJustification } from '../escalation/escalation-parameters.js';
import { inspectWrite } from '../escalation/inspect-write.js';
import { commitTextChange } from '../text/commit-text-change.js';
import { formatCount } from '../text/format-bytes.js';
import { loadTarget } from '../text/load-text-file.js';
import { prepareWriteTarget } from '../text/prepare-write-target.js';
import { MAX_TEXT_FILE_BYTES } from '../text/text-limits.js';

const inputSchema = z
  .strictObject({
    path: z.string().describe('Absolute path of the file, or relative to the working directory; ~ is your home directory'),
    content: z.string().describe('The complete new content of the file, at most 1 MiB'),
    ...escalationInputShape,
  })
  .superRefine(requireJustification);

/**
 * §7.2 `write`: create a file (and its missing parent directories), or replace an existing one
 * the model has read in its current state (§7.4). The write is atomic and compares the file with
 * what was read just before committing; the file's mode is kept. One-line summary; a
 * `file_change` artifact when the content changed (§8.4).
 */
export const writeTool = defineTool<typeof inputSchema, ToolSessionContext, SandboxPolicy>({
  id: 'write',
  description:
    'Create a file, or replace the whole content of an existing file, with `content` (at most 1 MiB of UTF-8 text). Missing parent directories are created. An existing file must have been read (with read) in its current state first. To change part of a file, prefer edit. Returns one summary line.',
  risk: 'workspace_mutation',
  inputSchema,
  inspect: (input, session) => inspectWrite(input.path, input, session),
  async execute(input, session, call) {
    const policy = requireCallPolicy(call.sandboxPolicy, 'write');
    if (ToolExecutionError.isInstance(policy)) return policy;
    const after = new TextEncoder().encode(input.content);
    if (after.length > MAX_TEXT_FILE_BYTES) {
      return new ToolExecutionError(
        'invalid_arguments',
        `content is ${formatCount(after.length)} bytes; write takes at most ${formatCount(MAX_TEXT_FILE_BYTES)} bytes (1 MiB). Write a smaller file, or split the content into several files.`,
      );
    }
    const resolved = await prepareWriteTarget(session, input.path, policy, 'write');
    if (!resolved.ok) return resolved.error;
    const target = resolved.path;

    return session.writeLocks.withLock(
      target.path,
      async () => {
        const before = await loadTarget(session, target, 'write', call.signal);
        if (before.exists) {
          const rejection = session.observations.check(target, before.sha256);
          if (rejection !== undefined) return new ToolExecutionError('execution_failed', rejection.message);
          if (Buffer.compare(before.bytes, after) === 0) return `${target.displayPath} unchanged: the content is identical`;
        }
        const change = await commitTextChange(session, target, before, after, 'write', call.callId, call.signal);
        const text = before.exists
          ? `Overwrote ${target.displayPath} (+${change.additions} -${change.deletions})`
          : `Created ${target.displayPath} (+${change.additions})`;
        return { text, artifacts: [change.artifact] };
      },
      { signal: call.signal },
    );
  },
});
