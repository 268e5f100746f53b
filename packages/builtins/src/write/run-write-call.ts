import type { SandboxPolicy } from '@openwork/sandbox';
import { ToolExecutionError, type ToolExecutionContext, type ToolOutput } from '@openwork/tools-contract';
import { requireCallPolicy } from '../context/require-call-policy.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { commitTextChange } from '../text/commit-text-change.js';
import { formatCount } from '../text/format-bytes.js';
import { loadTarget } from '../text/load-text-file.js';
import { prepareWriteTarget } from '../text/prepare-write-target.js';
import { MAX_TEXT_FILE_BYTES } from '../text/text-limits.js';
import type { WriteInput } from './write-tool.js';

/** One `write` call (§7.2), loaded on first use. */
export async function runWriteCall(input: WriteInput, session: ToolSessionContext, call: ToolExecutionContext<SandboxPolicy>): Promise<ToolOutput> {
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
}
