import type { SandboxPolicy } from '@openwork/sandbox';
import { ToolExecutionError, type ToolExecutionContext, type ToolOutput } from '@openwork/tools-contract';
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
import type { GrepInput } from './grep-tool.js';

/** One `grep` call (§7.6), loaded on first use: RE2, the walker and the search workers stay unloaded until then. */
export async function runGrepCall(input: GrepInput, session: ToolSessionContext, call: ToolExecutionContext<SandboxPolicy>): Promise<ToolOutput> {
  const policy = requireCallPolicy(call.sandboxPolicy, 'grep');
  if (ToolExecutionError.isInstance(policy)) return policy;
  const compiled = compileSearchPattern(input.pattern);
  if (!compiled.ok) return new ToolExecutionError(compiled.engineUnavailable === true ? 'execution_failed' : 'invalid_arguments', compiled.message);
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
}
