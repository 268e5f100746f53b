import { revealHiddenCharacters, type Runtime } from '@openwork/core';

type Store = Runtime['store'];
type SessionRecord = Awaited<ReturnType<Store['listSessions']>>[number];
type StoredMessage = Awaited<ReturnType<Store['loadMessages']>>[number];
type FileChangeRecord = Awaited<ReturnType<Store['listFileChanges']>>[number];

/** Sessions on one page of the list. */
export const SESSIONS_PER_PAGE = 50;
/** Messages on one page of a timeline (a session with 10,000 calls loads in pages). */
export const MESSAGES_PER_PAGE = 100;
/** Characters of one text the page gets (tool results are bounded by their tools already; this is a net). */
export const MAX_TEXT = 60_000;
/** Characters of a call's input as JSON. */
export const MAX_INPUT = 4_000;
/** Diff lines of one change in a timeline page; the rest on request, up to `MAX_FULL_DIFF_LINES`. */
export const DIFF_LINES_PER_CHANGE = 400;
export const MAX_FULL_DIFF_LINES = 20_000;
/** Sessions the list searches (the store lists sessions without an offset). */
const MAX_LISTED_SESSIONS = 10_000;

/**
 * Text that came from the model or the workspace, as the page shows it: bounded, and with escape
 * sequences, other control characters and bidirectional overrides revealed (`\x1b`, `\u202e`; tabs
 * and line breaks kept), as the CLI shows them (architecture §3.9). The page puts it in the DOM as
 * text only.
 */
export function shownText(text: string, max = MAX_TEXT): { text: string; omitted: number } {
  const kept = text.length > max ? text.slice(0, max) : text;
  return { text: kept.split('\n').map(revealLine).join('\n'), omitted: text.length - kept.length };
}

function revealLine(line: string): string {
  return line.split('\t').map(revealHiddenCharacters).join('\t');
}

function shown(text: string): string {
  return revealHiddenCharacters(text);
}

/** One row of the sessions list. */
export interface SessionRow {
  readonly id: string;
  readonly workspaceRoots: readonly string[];
  readonly mode: string;
  readonly agentRole: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly messageCount: number;
  readonly calls: number;
  readonly changes: number;
  readonly undone: number;
  readonly child: boolean;
}

/**
 * Counting calls means reading a session's messages: kept per session, and since messages are only
 * ever appended (gapless sequences), a later count reads only the messages after the last one
 * counted. Changes and their undone state are read again when `updatedAt` moved.
 */
export class SessionCounts {
  readonly #known = new Map<string, { updatedAt: string; lastSequence: number; calls: number; changes: number; undone: number; child: boolean }>();

  async of(store: Store, record: SessionRecord): Promise<{ calls: number; changes: number; undone: number; child: boolean }> {
    const known = this.#known.get(record.id);
    if (known !== undefined && known.updatedAt === record.updatedAt) return known;
    let calls = known?.calls ?? 0;
    let after = known?.lastSequence ?? 0;
    for (;;) {
      const page = await store.loadMessages(record.id, { afterSequence: after, limit: 1000 });
      for (const message of page) if (message.role === 'tool') calls += 1;
      if (page.length > 0) after = (page[page.length - 1] as StoredMessage).sequence;
      if (page.length < 1000) break;
    }
    const changes = await store.listFileChanges(record.id);
    const child = known?.child ?? (await store.getAgentRun(record.id)) !== undefined;
    const counted = { updatedAt: record.updatedAt, lastSequence: after, calls, changes: changes.length, undone: changes.filter((change) => change.undone).length, child };
    this.#known.set(record.id, counted);
    return counted;
  }
}

/** A page of the sessions list, newest activity first, filtered by a part of a workspace root. */
export async function sessionsPage(store: Store, counts: SessionCounts, query: { search: string; offset: number }): Promise<{ sessions: SessionRow[]; total: number; offset: number; pageSize: number; latest: string | null }> {
  const all = await store.listSessions({ limit: MAX_LISTED_SESSIONS });
  const needle = query.search.toLowerCase();
  const matching = needle === '' ? all : all.filter((record) => record.workspaceRoots.some((root) => root.toLowerCase().includes(needle)));
  const page = matching.slice(query.offset, query.offset + SESSIONS_PER_PAGE);
  const sessions: SessionRow[] = [];
  for (const record of page) {
    const counted = await counts.of(store, record);
    sessions.push({
      id: record.id,
      workspaceRoots: record.workspaceRoots.map(shown),
      mode: record.mode,
      agentRole: shown(record.agentRole),
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      messageCount: record.messageCount,
      calls: counted.calls,
      changes: counted.changes,
      undone: counted.undone,
      child: counted.child,
    });
  }
  return { sessions, total: matching.length, offset: query.offset, pageSize: SESSIONS_PER_PAGE, latest: all[0]?.updatedAt ?? null };
}

/** What changes when a session changes: polled by the page to know when to reload. */
export async function sessionVersion(store: Store, sessionId: string): Promise<string | null> {
  const record = await store.getSession(sessionId);
  if (record === undefined) return null;
  const [tasks, runs] = await Promise.all([store.listBackgroundTasks(sessionId), store.listAgentRuns(sessionId)]);
  return [record.updatedAt, record.messageCount, ...tasks.map((task) => `${task.taskId}:${task.updatedAt}`), ...runs.map((run) => `${run.id}:${run.updatedAt}`)].join('|');
}

/** One diff line: `' '` context, `'-'` removed, `'+'` added, `'\\'` a "no newline" note; line numbers on each side. */
export type DiffLine = readonly [kind: ' ' | '-' | '+' | '\\', oldNumber: number | null, newNumber: number | null, text: string];

/** A file change as the page shows it. */
export interface ChangeView {
  readonly changeId: string;
  readonly callId: string;
  readonly path: string;
  readonly kind: string;
  readonly entry: string;
  readonly note: string | null;
  readonly additions: number;
  readonly deletions: number;
  readonly undone: boolean;
  readonly undoable: boolean;
  readonly hunks: readonly { readonly header: string; readonly lines: readonly DiffLine[] }[];
  /** Diff lines left out of this view (ask for the change alone to see up to `MAX_FULL_DIFF_LINES`). */
  readonly omittedLines: number;
}

interface ChangeFacts {
  readonly displayPath?: unknown;
  readonly kind?: unknown;
  readonly entry?: unknown;
  readonly additions?: unknown;
  readonly deletions?: unknown;
  readonly hunks?: unknown;
  readonly unrecorded?: unknown;
  readonly beforeTarget?: unknown;
  readonly afterTarget?: unknown;
  readonly callId?: unknown;
}

interface Hunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly string[];
}

const UNRECORDED_WORDS: Record<string, string> = {
  binary: 'binary contents: not kept, cannot be undone here',
  too_large: 'over 1 MiB: contents not kept, cannot be undone here',
  not_recorded: 'what was there before is not known: cannot be undone here',
  over_budget: 'the call changed more than its record keeps: cannot be undone here',
};

/** A stored change as diff lines with numbers on both sides, at most `maxLines` of them. */
export function changeView(change: FileChangeRecord, maxLines: number): ChangeView {
  const facts = change.artifact.change as ChangeFacts;
  const entry = typeof facts.entry === 'string' ? facts.entry : 'file';
  const target = facts.afterTarget ?? facts.beforeTarget;
  let note: string | null = null;
  if (entry === 'directory') note = 'a folder';
  else if (entry === 'symlink') note = `a symbolic link${typeof target === 'string' ? ` -> ${shown(target)}` : ''}`;
  if (typeof facts.unrecorded === 'string') note = `${note === null ? '' : `${note}; `}${UNRECORDED_WORDS[facts.unrecorded] ?? 'cannot be undone here'}`;
  const hunks: { header: string; lines: DiffLine[] }[] = [];
  let budget = maxLines;
  let omitted = 0;
  for (const hunk of Array.isArray(facts.hunks) ? (facts.hunks as Hunk[]) : []) {
    if (budget <= 0) {
      omitted += hunk.lines.length;
      continue;
    }
    const lines: DiffLine[] = [];
    let oldNumber = hunk.oldStart === 0 ? 1 : hunk.oldStart;
    let newNumber = hunk.newStart === 0 ? 1 : hunk.newStart;
    if (hunk.oldLines === 0) oldNumber = hunk.oldStart + 1;
    if (hunk.newLines === 0) newNumber = hunk.newStart + 1;
    for (const raw of hunk.lines) {
      const prefix = raw.charAt(0);
      const text = revealLine(raw.slice(1));
      if (budget <= 0) {
        omitted += 1;
        continue;
      }
      budget -= 1;
      if (prefix === '-') lines.push(['-', oldNumber++, null, text]);
      else if (prefix === '+') lines.push(['+', null, newNumber++, text]);
      else if (prefix === '\\') lines.push(['\\', null, null, revealLine(raw)]);
      else lines.push([' ', oldNumber++, newNumber++, text]);
    }
    hunks.push({ header: `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`, lines });
  }
  return {
    changeId: change.changeId,
    callId: typeof facts.callId === 'string' ? facts.callId : change.toolCallId,
    path: shown(typeof facts.displayPath === 'string' ? facts.displayPath : change.path),
    kind: typeof facts.kind === 'string' ? facts.kind : 'modified',
    entry,
    note,
    additions: typeof facts.additions === 'number' ? facts.additions : 0,
    deletions: typeof facts.deletions === 'number' ? facts.deletions : 0,
    undone: change.undone,
    undoable: typeof facts.unrecorded !== 'string',
    hunks,
    omittedLines: omitted,
  };
}

function range(start: number, count: number): string {
  return count === 1 ? String(start) : `${start},${count}`;
}

/** One entry of a session's timeline. */
export type TimelineEntry =
  | { readonly type: 'user'; readonly sequence: number; readonly at: string; readonly origin: string | null; readonly text: string; readonly omitted: number }
  | {
      readonly type: 'assistant';
      readonly sequence: number;
      readonly at: string;
      readonly direct: boolean;
      readonly text: string;
      readonly omitted: number;
      readonly calls: readonly { readonly id: string; readonly toolId: string; readonly input: string; readonly approval: ApprovalView | null }[];
    }
  | {
      readonly type: 'result';
      readonly sequence: number;
      readonly at: string;
      readonly callId: string;
      readonly toolId: string;
      readonly status: string;
      /** Time from the message before it (the call, or the previous call's result) to the result; `null` for the first message of a page without the one before. */
      readonly durationMs: number | null;
      readonly text: string;
      readonly omitted: number;
      readonly images: number;
      readonly errorCode: string | null;
      readonly sandboxDenied: boolean;
      readonly approvalAnswer: string | null;
      readonly spillPaths: readonly string[];
      readonly changes: readonly ChangeView[];
      readonly changeSummary: string | null;
      /** Other artifacts of the result (a background task's record, records of later kinds), as bounded JSON. */
      readonly otherArtifacts: readonly { readonly kind: string; readonly json: string }[];
    };

/** What a call asked the person to approve (§7.5 escalation parameters). */
export interface ApprovalView {
  readonly paths: readonly string[];
  readonly justification: string;
}

/** A page of a session's timeline: messages after `afterSequence`, with their changes, plus the session's plan, tasks and sub-agents. */
export async function timelinePage(
  store: Store,
  sessionId: string,
  afterSequence: number,
): Promise<
  | {
      session: SessionRecord & { parent: string | null };
      entries: TimelineEntry[];
      nextAfter: number | null;
      plan: { explanation: string | null; steps: { step: string; status: string }[]; updatedAt: string } | null;
      tasks: { taskId: string; command: string; description: string | null; state: string; exitCode: number | null; problem: string | null; startedAt: string; endedAt: string | null; outputTail: string }[];
      agents: { id: string; role: string; state: string; prompt: string; round: number; result: string | null; updatedAt: string }[];
      version: string | null;
    }
  | undefined
> {
  const record = await store.getSession(sessionId);
  if (record === undefined) return undefined;
  // One message before the page, for the first result's duration.
  const loaded = await store.loadMessages(sessionId, { afterSequence: Math.max(0, afterSequence - 1), limit: MESSAGES_PER_PAGE + (afterSequence > 0 ? 1 : 0) });
  const messages = loaded.filter((message) => message.sequence > afterSequence);
  const previousOf = new Map<number, StoredMessage>();
  for (let index = 1; index < loaded.length; index += 1) previousOf.set((loaded[index] as StoredMessage).sequence, loaded[index - 1] as StoredMessage);
  const changes = await store.listFileChanges(sessionId);
  const byMessage = new Map<string, FileChangeRecord[]>();
  for (const change of changes) {
    const list = byMessage.get(change.messageId) ?? [];
    list.push(change);
    byMessage.set(change.messageId, list);
  }
  const entries = messages.map((message) => entryOf(message, previousOf.get(message.sequence), byMessage.get(message.id) ?? []));
  const [plan, tasks, runs, run, version] = await Promise.all([
    store.getPlan(sessionId),
    store.listBackgroundTasks(sessionId),
    store.listAgentRuns(sessionId),
    store.getAgentRun(sessionId),
    sessionVersion(store, sessionId),
  ]);
  const last = messages[messages.length - 1];
  return {
    session: { ...record, workspaceRoots: record.workspaceRoots.map(shown), agentRole: shown(record.agentRole), parent: run?.parentSessionId ?? null },
    entries,
    nextAfter: messages.length === MESSAGES_PER_PAGE && last !== undefined ? last.sequence : null,
    plan: plan === undefined ? null : { explanation: plan.explanation === null ? null : shownText(plan.explanation).text, steps: plan.plan.map((step) => ({ step: shownText(step.step).text, status: step.status })), updatedAt: plan.updatedAt },
    tasks: tasks.map((task) => ({
      taskId: shown(task.taskId),
      command: shownText(task.command).text,
      description: task.description === null ? null : shownText(task.description).text,
      state: task.state,
      exitCode: task.exitCode,
      problem: task.problem === null ? null : shownText(task.problem).text,
      startedAt: task.startedAt,
      endedAt: task.endedAt,
      outputTail: shownText(task.outputTail).text,
    })),
    agents: runs.map((child) => ({
      id: child.id,
      role: shown(child.role),
      state: child.state,
      prompt: shownText(child.prompt, 2_000).text,
      round: child.round,
      result: child.result === null ? null : shownText(child.result.error ?? child.result.text, 4_000).text,
      updatedAt: child.updatedAt,
    })),
    version,
  };
}

/** One change of a session with up to `MAX_FULL_DIFF_LINES` diff lines. */
export async function fullChange(store: Store, sessionId: string, changeId: string): Promise<ChangeView | undefined> {
  const change = (await store.listFileChanges(sessionId)).find((candidate) => candidate.changeId === changeId);
  return change === undefined ? undefined : changeView(change, MAX_FULL_DIFF_LINES);
}

function entryOf(message: StoredMessage, previous: StoredMessage | undefined, changes: readonly FileChangeRecord[]): TimelineEntry {
  const origin = typeof message.metadata?.['origin'] === 'string' ? (message.metadata['origin'] as string) : null;
  if (message.role === 'user') {
    return { type: 'user', sequence: message.sequence, at: message.createdAt, origin, ...shownText(message.text) };
  }
  if (message.role === 'assistant') {
    return {
      type: 'assistant',
      sequence: message.sequence,
      at: message.createdAt,
      direct: origin === 'direct_call',
      ...shownText(message.text),
      calls: message.toolCalls.map((call) => ({ id: call.id, toolId: shown(call.toolId), input: inputText(call.input), approval: approvalOf(call.input) })),
    };
  }
  const result = message.result;
  const textPart = result.content.find((part) => part.type === 'text') as { text?: string } | undefined;
  const text = typeof textPart?.text === 'string' ? textPart.text : '';
  const summary = result.artifacts.find((artifact) => artifact.kind === 'file_change_summary') as { summary?: { counts?: { created?: number; modified?: number; deleted?: number }; recorded?: number; complete?: boolean } } | undefined;
  const counts = summary?.summary?.counts;
  const changeSummary =
    counts === undefined
      ? null
      : `${(counts.created ?? 0) + (counts.modified ?? 0) + (counts.deleted ?? 0)} entries changed (${counts.created ?? 0} created, ${counts.modified ?? 0} modified, ${counts.deleted ?? 0} deleted)${summary?.summary?.complete === false ? `; the first ${summary.summary.recorded ?? 0} are recorded, the rest were counted only and cannot be undone` : ''}`;
  const errorMessage = result.error?.message ?? '';
  return {
    type: 'result',
    sequence: message.sequence,
    at: message.createdAt,
    callId: message.toolCallId,
    toolId: shown(message.toolId),
    status: result.status,
    durationMs: previous === undefined ? null : Math.max(0, Date.parse(message.createdAt) - Date.parse(previous.createdAt)),
    ...shownText(text),
    images: result.content.filter((part) => part.type === 'image').length,
    errorCode: result.error?.code ?? null,
    sandboxDenied: result.sandboxDenied,
    approvalAnswer: approvalAnswerOf(result.status, errorMessage),
    spillPaths: spillPathsOf(text),
    changes: changes.map((change) => changeView(change, DIFF_LINES_PER_CHANGE)),
    changeSummary,
    otherArtifacts: result.artifacts
      .filter((artifact) => artifact.kind !== 'file_change' && artifact.kind !== 'file_change_summary')
      .slice(0, 20)
      .map((artifact) => ({ kind: shown(String(artifact.kind)), json: inputText(artifact) })),
  };
}

function inputText(input: unknown): string {
  const json = JSON.stringify(input, null, 2) ?? '';
  return shownText(json, MAX_INPUT).text + (json.length > MAX_INPUT ? `\n… ${json.length - MAX_INPUT} more characters` : '');
}

/** The paths a call asked for with §7.5's escalation parameters: what the person was asked to approve. */
function approvalOf(input: unknown): ApprovalView | null {
  if (typeof input !== 'object' || input === null) return null;
  const { sandboxPermissions, justification } = input as { sandboxPermissions?: unknown; justification?: unknown };
  if (!Array.isArray(sandboxPermissions)) return null;
  const paths = sandboxPermissions.map((grant: unknown) => {
    const { path, access, scope } = (grant ?? {}) as { path?: unknown; access?: unknown; scope?: unknown };
    return shown(`${String(path)} (${String(access)}${scope === undefined ? '' : `, ${String(scope)}`})`);
  });
  return { paths, justification: typeof justification === 'string' ? shownText(justification, 2_000).text : '' };
}

/**
 * The person's answer as the result shows it: core stores no approval record, so a refusal is
 * known by the `denied` message core writes for it (architecture §4), and a call that ran was
 * approved or needed no approval.
 */
function approvalAnswerOf(status: string, message: string): string | null {
  if (status !== 'denied') return null;
  if (message.startsWith('The user did not approve this call')) return 'refused by the person';
  if (message.startsWith('This call needs the user\'s approval') && message.includes('no one can approve')) return 'needed approval; no one could be asked';
  if (message.startsWith('Asking the user to approve this call')) return 'asking for approval failed';
  return null;
}

/** Paths of spill files a result names (§8.2): shown as paths, never read into the page. */
function spillPathsOf(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/(\/[^\s"'`]*\/spill\/[^\s"'`]+)/gu)) found.add(shown((match[1] as string).replace(/[).,;:]+$/u, '')));
  return [...found].slice(0, 8);
}
