import type { SandboxPolicy } from '@openwork/sandbox';
import { ToolExecutionError, type ToolExecutionContext, type ToolOutput } from '@openwork/tools-contract';
import type { CheckedPath } from '../context/checked-path.js';
import { requireCallPolicy } from '../context/require-call-policy.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { commitTextChange } from '../text/commit-text-change.js';
import { formatCount } from '../text/format-bytes.js';
import { loadTarget } from '../text/load-text-file.js';
import { prepareWriteTarget } from '../text/prepare-write-target.js';
import { MAX_TEXT_FILE_BYTES } from '../text/text-limits.js';
import { applyReplacements } from './apply-replacements.js';
import { editFailureMemory } from './edit-failure-memory.js';
import { editFailureText, repeatedFailureNotice } from './edit-failure-text.js';
import { editEntries, type EditForm } from './edit-input.js';
import { editSummary, matchNote } from './edit-summary.js';
import type { EditEntry } from './match-edit-entry.js';
import { planEdits, type EntryOutcome } from './plan-edits.js';
import type { EditInput } from './edit-tool.js';

/** One `edit` call (§7.3), loaded on first use. */
export async function runEditCall(input: EditInput, session: ToolSessionContext, call: ToolExecutionContext<SandboxPolicy>): Promise<ToolOutput> {
  const policy = requireCallPolicy(call.sandboxPolicy, 'edit');
  if (ToolExecutionError.isInstance(policy)) return policy;
  const { form, entries } = editEntries(input);
  const invalid = form === 'single' ? checkSingleEntry(entries[0]) : checkEntries(entries);
  if (invalid !== undefined) return invalid;
  if (form === 'single' && entries[0]?.oldString === '') return createFile(input.filePath, entries[0].newString, session, call, policy);
  return replaceText(input.filePath, form, entries, session, call, policy);
}

/** §7.3's checks of the single form, with its texts. */
function checkSingleEntry(entry: EditEntry | undefined): ToolExecutionError | undefined {
  if (entry === undefined) return new ToolExecutionError('invalid_arguments', 'Send oldString and newString.');
  const newBytes = Buffer.byteLength(entry.newString, 'utf8');
  if (newBytes > MAX_TEXT_FILE_BYTES) {
    return new ToolExecutionError(
      'invalid_arguments',
      `newString is ${formatCount(newBytes)} bytes; edit takes at most ${formatCount(MAX_TEXT_FILE_BYTES)} bytes (1 MiB). Make smaller edits.`,
    );
  }
  if (entry.oldString === entry.newString) {
    return new ToolExecutionError('invalid_arguments', 'oldString and newString are identical, so the edit would change nothing. Send the text to put in its place as newString.');
  }
  return undefined;
}

/** The same checks for `edits`, naming every entry that fails them; nothing is read yet. */
function checkEntries(entries: readonly EditEntry[]): ToolExecutionError | undefined {
  const newBytes = entries.reduce((total, entry) => total + Buffer.byteLength(entry.newString, 'utf8'), 0);
  if (newBytes > MAX_TEXT_FILE_BYTES) {
    return new ToolExecutionError(
      'invalid_arguments',
      `The newString texts of edits add up to ${formatCount(newBytes)} bytes; edit takes at most ${formatCount(MAX_TEXT_FILE_BYTES)} bytes (1 MiB) per call. Make smaller edits.`,
    );
  }
  const problems = entries.flatMap((entry, index) => {
    if (entry.oldString === '') {
      return [`edits[${index}]: oldString is empty, but edits only replace text in an existing file (to create a file, send oldString "" and newString without edits, or use write)`];
    }
    if (entry.oldString === entry.newString) return [`edits[${index}]: oldString and newString are identical, so this entry would change nothing; drop it or send the new text as newString`];
    return [];
  });
  if (problems.length === 0) return undefined;
  return new ToolExecutionError('invalid_arguments', `No edit was applied.\n${problems.join('\n')}\nFix the entries named above and send all the edits again.`);
}

/** Empty `oldString`: create a new file; an existing target is refused (§7.3). */
async function createFile(filePath: string, content: string, session: ToolSessionContext, call: ToolExecutionContext<SandboxPolicy>, policy: SandboxPolicy) {
  const resolved = await prepareWriteTarget(session, filePath, policy, 'edit');
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
      const change = await commitTextChange(session, target, before, new TextEncoder().encode(content), 'edit', call.callId, call.signal);
      return { text: `Created ${target.displayPath} (+${change.additions})`, artifacts: [change.artifact] };
    },
    { signal: call.signal },
  );
}

/**
 * Non-empty `oldString`s: replace in an existing file. Every entry is matched against the content
 * read under the lock; any failure leaves the file untouched (one write or none, edit beyond the spec).
 */
async function replaceText(
  filePath: string,
  form: EditForm,
  entries: readonly EditEntry[],
  session: ToolSessionContext,
  call: ToolExecutionContext<SandboxPolicy>,
  policy: SandboxPolicy,
) {
  const resolved = await session.resolvePath(filePath, 'write', 'must-exist', policy, 'edit');
  if (!resolved.ok) return resolved.error;
  const target = resolved.path;
  return session.writeLocks.withLock(
    target.path,
    async () => {
      const before = await loadTarget(session, target, 'edit', call.signal);
      if (!before.exists) return missingFile(target);
      const rejection = session.observations.check(target, before.sha256);
      if (rejection !== undefined) return new ToolExecutionError('execution_failed', rejection.message);

      const memory = editFailureMemory(session.observations);
      const plan = planEdits(before.text, entries);
      if (!plan.ok) {
        const message = editFailureText({ displayPath: target.displayPath, content: before.text, form, entries }, plan.failures);
        const repeated = memory.recordFailure(target.path, { contentSha256: before.sha256, entries, message });
        return new ToolExecutionError('invalid_arguments', repeated ? `${message}\n${repeatedFailureNotice(target.displayPath)}` : message);
      }
      const applied = applyReplacements(before.text, plan.replacements);
      // Only a tolerant match can land here (§7.3 refuses oldString === newString): the text it
      // found already reads as newString.
      if (applied.content === before.text) {
        return new ToolExecutionError(
          'invalid_arguments',
          `${target.displayPath} already reads like that: the text ${form === 'single' ? 'oldString' : 'each entry'} matched (${tolerantNote(plan.outcomes, entries)}) equals newString, so the edit would change nothing. Nothing was written.`,
        );
      }
      const after = new TextEncoder().encode(applied.content);
      if (after.length > MAX_TEXT_FILE_BYTES) {
        return new ToolExecutionError(
          'invalid_arguments',
          `The edited ${target.displayPath} would be ${formatCount(after.length)} bytes; edit keeps files at most ${formatCount(MAX_TEXT_FILE_BYTES)} bytes (1 MiB). Make the file smaller, or split it.`,
        );
      }
      const change = await commitTextChange(session, target, before, after, 'edit', call.callId, call.signal);
      memory.forget(target.path);
      const text = editSummary({
        displayPath: target.displayPath,
        form,
        entries,
        outcomes: plan.outcomes,
        ranges: applied.ranges,
        additions: change.additions,
        deletions: change.deletions,
      });
      return { text, artifacts: [change.artifact] };
    },
    { signal: call.signal },
  );
}

/** How the first tolerantly matched entry was found, for the no-change text. */
function tolerantNote(outcomes: readonly EntryOutcome[], entries: readonly EditEntry[]): string {
  for (const [index, outcome] of outcomes.entries()) {
    const note = matchNote(outcome.strategy, outcome.shift, entries[index]?.oldString ?? '');
    if (note !== undefined) return note;
  }
  return 'after ignoring line endings';
}

function missingFile(target: CheckedPath): ToolExecutionError {
  return new ToolExecutionError(
    'execution_failed',
    `${target.displayPath} does not exist (it was removed just now). To create it, call edit with an empty oldString, or use write.`,
  );
}
