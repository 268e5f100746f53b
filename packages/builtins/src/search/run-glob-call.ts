import type { SandboxPolicy } from '@openwork/sandbox';
import { ToolExecutionError, type ToolExecutionContext, type ToolOutput } from '@openwork/tools-contract';
import { fileSystemFailure } from '../context/file-system-failure.js';
import { requireCallPolicy } from '../context/require-call-policy.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { BoundedText } from './bounded-text.js';
import { formatSeconds, plural, savedListClause } from './format-search-footer.js';
import { loadIgnoreRules } from './load-ignore-rules.js';
import { runGlob } from './run-glob.js';
import { ScanLimit } from './scan-limit.js';
import { compileSearchGlob } from './search-glob.js';
import type { GlobInput } from './glob-tool.js';

/** One `glob` call (§7.7), loaded on first use. */
export async function runGlobCall(input: GlobInput, session: ToolSessionContext, call: ToolExecutionContext<SandboxPolicy>): Promise<ToolOutput> {
  const policy = requireCallPolicy(call.sandboxPolicy, 'glob');
  if (ToolExecutionError.isInstance(policy)) return policy;
  const limit = new ScanLimit(call.signal, call.deadline);
  const resolved = await session.resolvePath(input.path, 'read', 'must-exist', policy, 'glob');
  if (!resolved.ok) return resolved.error;
  const root = resolved.path;
  let accept: (relativePath: string) => boolean;
  try {
    accept = compileSearchGlob(input.pattern, { nameAtAnyDepth: false, root: root.path });
  } catch (error) {
    return new ToolExecutionError('invalid_arguments', `The glob ${JSON.stringify(input.pattern)} is not valid: ${error instanceof Error ? error.message : String(error)}.`);
  }
  const list = session.spill?.openWriter(call.callId);
  try {
    if ((await session.filesystem.stat(root.path)).kind !== 'directory') {
      await list?.discard();
      return new ToolExecutionError('invalid_arguments', `${root.displayPath} is not a directory; glob searches a directory. Use read to see a file.`);
    }
    const rules = await loadIgnoreRules(session, root.path, policy);
    const tally = await runGlob({ session, policy, root, rules, accept, limit, signal: call.signal, list });
    if (limit.cancelled) {
      await list?.discard();
      return new ToolExecutionError('cancelled', 'glob was cancelled.');
    }
    const body = new BoundedText();
    let shown = 0;
    for (const file of tally.newest) {
      if (!body.add(file.displayPath)) break;
      shown += 1;
    }
    const omitted = shown < tally.total;
    const spill = omitted ? await list?.finish() : (await list?.discard(), undefined);
    const saved = savedListClause(spill, session.spill?.maxBytes ?? 0);
    let footer = '';
    if (limit.timedOut) {
      footer = `[at least ${plural(tally.total, 'file')}; search timed out after ${formatSeconds(limit.milliseconds)} — narrow the path or pattern]`;
      if (omitted && saved !== '') footer = `[showing the ${shown} most recently modified of the files found so far${saved.replace('full list', 'list so far')}]\n${footer}`;
    } else if (omitted) {
      footer = `[showing the ${shown} most recently modified of ${plural(tally.total, 'file')}${saved}]`;
    }
    if (tally.total === 0) {
      const none = `No files match ${input.pattern} in ${root.displayPath}`;
      return footer === '' ? none : `${none}\n${footer}`;
    }
    return footer === '' ? body.toString() : `${body.toString()}\n\n${footer}`;
  } catch (error) {
    await list?.discard();
    return fileSystemFailure(error);
  }
}
