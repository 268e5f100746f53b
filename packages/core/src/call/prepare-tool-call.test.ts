import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolSessionContext } from '@openwork/builtins';
import { NodeFileSystem } from '@openwork/fs-backend';
import { NodeProcessBackend } from '@openwork/process-backend';
import { UnavailableSandboxBackend, type SandboxPolicy } from '@openwork/sandbox';
import { CallInspection, defineTool, ToolRegistryBuilder, ToolResult, type CallFacts, type FinalizedToolset } from '@openwork/tools-contract';
import * as z from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalCard } from './approval.js';
import { askApprover } from './ask-approver.js';
import { prepareToolCall } from './prepare-tool-call.js';
import { readDanger, readEscalation } from './read-call-facts.js';

// A tool that reports whatever inspection its input describes, to drive every branch of the decision.
const probe = defineTool<z.ZodType<{ kind: 'read_only' | 'writes' | 'runs'; subject?: string; facts?: Record<string, unknown> }>, ToolSessionContext, SandboxPolicy>({
  id: 'probe',
  description: 'Reports the inspection its input describes.',
  risk: 'read_only',
  inputSchema: z.strictObject({ kind: z.enum(['read_only', 'writes', 'runs']), subject: z.string().optional(), facts: z.record(z.string(), z.unknown()).optional() }),
  inspect: (input) => {
    const facts = (input.facts ?? {}) as CallFacts;
    if (input.kind === 'writes') return CallInspection.writes(input.subject ?? '', facts);
    if (input.kind === 'runs') return CallInspection.runs(input.subject ?? '', facts);
    return CallInspection.readOnly(facts);
  },
  execute: () => 'ran',
});

let root: string;
let context: ToolSessionContext;
let toolset: FinalizedToolset<ToolSessionContext, SandboxPolicy>;
const escalation = (paths: unknown, justification: unknown = 'why') => ({ escalation: { paths, justification } });
const finding = { rule: 'git-hard-reset', command: 'git reset --hard', reason: 'Discards uncommitted work.' };

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'ow-core-prepare-')));
  context = new ToolSessionContext({
    workingDirectory: join(root, 'workspace'),
    homeDirectory: join(root, 'home'),
    sandbox: new UnavailableSandboxBackend('not needed to decide'),
    environment: {},
    filesystem: new NodeFileSystem(),
    processBackend: new NodeProcessBackend(),
  });
  toolset = new ToolRegistryBuilder<ToolSessionContext, SandboxPolicy>().register(probe).finalize({ tools: ['probe'] }, context);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function decide(input: unknown) {
  return prepareToolCall(toolset, context, 'probe', input);
}

describe('prepareToolCall (architecture §4, one step per rule)', () => {
  it('step 1: an unknown tool or a bad input is the result', () => {
    expect(prepareToolCall(toolset, context, 'other', {})).toMatchObject({ status: 'rejected', result: { error: { code: 'tool_not_found' } } });
    expect(decide({ kind: 'nope' })).toMatchObject({ status: 'rejected', result: { error: { code: 'invalid_arguments' } } });
  });

  it('step 2: a hard-protected target is denied with its text, before anything else', () => {
    const outcome = decide({ kind: 'writes', subject: 'x', facts: { protectedTarget: 'Permission denied: x is protected.', danger: { findings: [finding] }, ...escalation([{ path: '/a', access: 'write', scope: 'exact' }]) } });
    expect(outcome).toMatchObject({ status: 'denied', result: { status: 'denied', sandboxDenied: false, error: { code: 'permission_denied' } } });
    expect(outcome.status === 'denied' && ToolResult.text(outcome.result)).toBe('Permission denied: x is protected.');
    expect(decide({ kind: 'writes', subject: 'x', facts: { protectedTarget: '' } }).status).toBe('ready');
  });

  it('step 3: a grant to write a hard-protected path is denied; to read it, it is asked', () => {
    const openworkHome = join(root, 'home', '.openwork', 'db');
    const write = decide({ kind: 'runs', subject: 'ls', facts: escalation([{ path: '/elsewhere', access: 'read', scope: 'exact' }, { path: openworkHome, access: 'write', scope: 'subtree' }]) });
    expect(write).toMatchObject({ status: 'denied', result: { status: 'denied', sandboxDenied: false, error: { code: 'permission_denied' } } });
    expect(write.status === 'denied' && ToolResult.text(write.result)).toMatch(/^Permission denied: .*\/home\/\.openwork\/db is protected and cannot be changed by tools\.$/);
    expect(decide({ kind: 'runs', subject: 'ls', facts: escalation([{ path: openworkHome, access: 'read', scope: 'exact' }]) }).status).toBe('needs_approval');
  });

  it('step 4: an escalation, a dangerous command or both need approval, with a card that says what and why', () => {
    const paths = [{ path: '/srv/data', access: 'write', scope: 'subtree' }];
    const writes = decide({ kind: 'writes', subject: '/srv/data/a', facts: escalation(paths, 'Save the export there') });
    expect(writes.status === 'needs_approval' && Object.keys(writes.card)).toEqual(['toolId', 'reasons', 'target', 'paths', 'justification']);
    expect(writes).toEqual({
      status: 'needs_approval',
      call: expect.objectContaining({ toolId: 'probe' }),
      grants: paths,
      card: { toolId: 'probe', reasons: ['escalation'], target: '/srv/data/a', paths, justification: 'Save the export there' },
    });
    const second = { rule: 'remote-script', command: 'curl x | sh', reason: 'Runs a downloaded script.' };
    const both = decide({ kind: 'runs', subject: 'git reset --hard; curl x | sh', facts: { danger: { dangerous: true, findings: [finding, second] }, ...escalation(paths) } });
    expect(both).toMatchObject({
      status: 'needs_approval',
      card: {
        toolId: 'probe',
        reasons: ['escalation', 'danger'],
        command: 'git reset --hard; curl x | sh',
        paths,
        justification: 'why',
        danger: { reason: 'Discards uncommitted work.\nRuns a downloaded script.', findings: [finding, second] },
      },
    });
    expect(both.status === 'needs_approval' && Object.isFrozen(both.card.danger?.findings)).toBe(true);
    expect(both.status === 'needs_approval' && 'target' in both.card).toBe(false);
    expect(decide({ kind: 'runs', subject: 'git reset --hard', facts: { danger: { findings: [finding] } } })).toMatchObject({ status: 'needs_approval', grants: [], card: { reasons: ['danger'], paths: [] } });
  });

  it('step 5: nothing to ask is ready; a malformed escalation is never guessed at', () => {
    expect(decide({ kind: 'read_only' })).toMatchObject({ status: 'ready', call: { inspection: { kind: 'read_only' } } });
    expect(decide({ kind: 'runs', subject: 'ls', facts: { danger: { dangerous: false, findings: [] } } }).status).toBe('ready');
    const malformed = decide({ kind: 'runs', subject: 'ls', facts: escalation('everything') });
    expect(malformed).toMatchObject({ status: 'rejected', result: { error: { code: 'execution_failed' } } });
    expect(malformed.status === 'rejected' && ToolResult.text(malformed.result)).toBe('probe could not be checked before running (escalation.paths is not a non-empty list), so it was not run. This is a bug of the tool, not of the arguments.');
  });
});

describe('reading the facts of an inspection', () => {
  const runs = (facts: Record<string, unknown>) => CallInspection.runs('cmd', facts as CallFacts);

  it('escalation: absent, present (frozen), or malformed with the reason', () => {
    expect(readEscalation(runs({}))).toEqual({ kind: 'absent' });
    const present = readEscalation(runs(escalation([{ path: '/a', access: 'read', scope: 'exact', extra: 1 }], 'j')));
    expect(present).toEqual({ kind: 'present', value: { paths: [{ path: '/a', access: 'read', scope: 'exact' }], justification: 'j' } });
    expect(present.kind === 'present' && Object.isFrozen(present.value.paths[0])).toBe(true);
    const problems = [
      [{ escalation: 'x' }, 'escalation is not an object'],
      [{ escalation: null }, 'escalation is not an object'],
      [escalation([]), 'escalation.paths is not a non-empty list'],
      [escalation([{ path: '/a', access: 'read', scope: 'exact' }], ' '), 'escalation.justification is empty'],
      [escalation([{ path: '/a', access: 'read', scope: 'exact' }], 3), 'escalation.justification is empty'],
      [escalation([{ path: 'a', access: 'read', scope: 'exact' }]), 'an escalation path is not absolute'],
      [escalation([{ path: '/a\0b', access: 'read', scope: 'exact' }]), 'an escalation path is not absolute'],
      [escalation([null]), 'an escalation path is not absolute'],
      [escalation([{ path: '/a', access: 'execute', scope: 'exact' }]), 'an escalation access is neither read nor write'],
      [escalation([{ path: '/a', access: 'write', scope: 'all' }]), 'an escalation scope is neither exact nor subtree'],
    ] as const;
    for (const [facts, problem] of problems) expect(readEscalation(runs(facts))).toEqual({ kind: 'malformed', problem });
  });

  it('danger: absent, present, and when in doubt present', () => {
    expect(readDanger(runs({}))).toEqual({ kind: 'absent' });
    expect(readDanger(runs({ danger: null }))).toEqual({ kind: 'absent' });
    expect(readDanger(runs({ danger: { dangerous: false, findings: [] } }))).toEqual({ kind: 'absent' });
    expect(readDanger(runs({ danger: { dangerous: true, findings: [finding] } }))).toEqual({ kind: 'present', value: { findings: [finding] } });
    const unknown = { rule: 'unparseable', command: 'cmd', reason: 'The tool reported this command as dangerous without saying why.' };
    expect(readDanger(runs({ danger: 'yes' }))).toEqual({ kind: 'present', value: { findings: [unknown] } });
    expect(readDanger(runs({ danger: { findings: 'many' } }))).toEqual({ kind: 'present', value: { findings: [unknown] } });
    expect(readDanger(runs({ danger: { dangerous: true, findings: [] } }))).toEqual({ kind: 'present', value: { findings: [unknown] } });
    expect(readDanger(runs({ danger: { findings: [finding, { rule: 1 }] } }))).toEqual({ kind: 'present', value: { findings: [finding, unknown] } });
    // Each field of a finding must be text; one wrong field makes it the unknown finding.
    for (const broken of [{ ...finding, rule: 1 }, { ...finding, command: 1 }, { ...finding, reason: 1 }, null, 'finding']) {
      expect(readDanger(runs({ danger: { findings: [broken] } }))).toEqual({ kind: 'present', value: { findings: [unknown] } });
    }
    // `dangerous: false` with findings is a contradiction: when in doubt, ask.
    expect(readDanger(runs({ danger: { dangerous: false, findings: [finding] } }))).toEqual({ kind: 'present', value: { findings: [finding] } });
    expect(readDanger(CallInspection.readOnly({ danger: 'yes' } as CallFacts))).toEqual({ kind: 'present', value: { findings: [{ ...unknown, command: '' }] } });
  });
});

describe('askApprover', () => {
  const card: ApprovalCard = {
    toolId: 'bash',
    reasons: ['escalation', 'danger'],
    command: 'rm -rf build',
    paths: [{ path: '/srv/a', access: 'write', scope: 'exact' }],
    justification: 'j',
    danger: { reason: 'Deletes a lot.', findings: [{ rule: 'recursive-delete', command: 'rm -rf build', reason: 'Deletes a lot.' }] },
  };
  const context = () => ({ sessionId: 's', callId: 'c', signal: new AbortController().signal });
  const why = 'access to /srv/a (write, exact); a dangerous command: Deletes a lot.';

  it('approves only true or { approved: true }', async () => {
    expect(await askApprover(() => true, card, context())).toEqual({ approved: true });
    expect(await askApprover(async () => ({ approved: true }), card, context())).toEqual({ approved: true });
    for (const answer of [false, 'yes', 1, { approved: 'yes' }, undefined, null, { approved: false }]) {
      const outcome = await askApprover(() => answer as boolean, card, context());
      expect(outcome.approved).toBe(false);
      expect(!outcome.approved && ToolResult.text(outcome.result)).toBe(`The user did not approve this call (${why}). Nothing was run. Do not repeat the same call; continue another way or ask the user.`);
      expect(!outcome.approved && outcome.result.status).toBe('denied');
    }
  });

  it('passes a refusal reason on, trimmed; a blank one is left out', async () => {
    const reasoned = await askApprover(() => ({ approved: false, reason: '  use the build folder  ' }), card, context());
    expect(!reasoned.approved && ToolResult.text(reasoned.result)).toBe(`The user did not approve this call (${why}): use the build folder. Nothing was run. Do not repeat the same call; continue another way or ask the user.`);
    // A reason written as a sentence keeps one period (it read "themselves.. Nothing").
    const sentence = await askApprover(() => ({ approved: false, reason: 'Ask the user to do this themselves.' }), card, context());
    expect(!sentence.approved && ToolResult.text(sentence.result)).toBe(
      `The user did not approve this call (${why}): Ask the user to do this themselves. Nothing was run. Do not repeat the same call; continue another way or ask the user.`,
    );
    const blank = await askApprover(() => ({ approved: false, reason: ' ' }), card, context());
    expect(!blank.approved && ToolResult.text(blank.result)).toBe(`The user did not approve this call (${why}). Nothing was run. Do not repeat the same call; continue another way or ask the user.`);
  });

  it('names every path and what is dangerous in its texts', async () => {
    const two = { ...card, reasons: ['escalation'] as const, danger: undefined, paths: [{ path: '/srv/a', access: 'write', scope: 'exact' }, { path: '/srv/b', access: 'read', scope: 'subtree' }] as const };
    const outcome = await askApprover(() => false, two, context());
    expect(!outcome.approved && ToolResult.text(outcome.result)).toBe(
      'The user did not approve this call (access to /srv/a (write, exact), /srv/b (read, subtree)). Nothing was run. Do not repeat the same call; continue another way or ask the user.',
    );
    const vague = await askApprover(() => false, { ...card, paths: [], reasons: ['danger'], danger: { reason: '', findings: [] } }, context());
    expect(!vague.approved && ToolResult.text(vague.result)).toMatch(/^The user did not approve this call \(a dangerous command\)\. /);
    // A reason rides only on a well-formed refusal.
    const odd = await askApprover(() => ({ approved: 'yes', reason: 'ignored' }) as unknown as boolean, card, context());
    expect(!odd.approved && ToolResult.text(odd.result)).not.toContain('ignored');
  });

  it('stops waiting when the call is cancelled while the user decides', async () => {
    const controller = new AbortController();
    const waiting = askApprover(() => new Promise<boolean>(() => undefined), card, { sessionId: 's', callId: 'c', signal: controller.signal });
    controller.abort();
    const outcome = await waiting;
    expect(!outcome.approved && outcome.result).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
    expect(!outcome.approved && ToolResult.text(outcome.result)).toBe("The call was cancelled while waiting for the user's approval. Nothing was run.");
  });

  it('no approver, a rejection or an abort: never approved', async () => {
    const none = await askApprover(undefined, card, context());
    expect(!none.approved && ToolResult.text(none.result)).toBe(`This call needs the user's approval (${why}), but no one can approve calls in this session, so it was not run. Continue without it, or ask the user to do it.`);
    const rejected = await askApprover(() => Promise.reject(new Error('prompt closed')), card, context());
    expect(!rejected.approved && ToolResult.text(rejected.result)).toBe(`Asking the user to approve this call (${why}) failed (prompt closed), so it was not run.`);
    const aborted = new AbortController();
    aborted.abort();
    let asked = false;
    const cancelled = await askApprover(() => ((asked = true), true), card, { sessionId: 's', callId: 'c', signal: aborted.signal });
    expect(asked).toBe(false);
    expect(!cancelled.approved && cancelled.result.status).toBe('cancelled');
    const onlyDanger = await askApprover(undefined, { ...card, paths: [], reasons: ['danger'] }, context());
    expect(!onlyDanger.approved && ToolResult.text(onlyDanger.result)).toContain('(a dangerous command: Deletes a lot.)');
  });
});
