import type { SandboxPolicy } from '@openwork/sandbox';
import { defineTool, ToolExecutionError, type Tool, type ToolInputSchema } from '@openwork/tools-contract';
import * as z from 'zod';
import type { ControlContext } from '../control/control-context.js';
import { MAX_AGENT_OPERATIONS, MAX_AGENT_PROMPT, MAX_AWAIT_MS, MAX_AWAIT_TARGETS } from './agent-limits.js';
import type { AgentReceipt, AgentStatus } from './session-agents.js';

export const AGENT_SEND_TOOL_ID = 'agent_send';
export const AGENT_AWAIT_TOOL_ID = 'agent_await';
export const AGENT_LIST_TOOL_ID = 'agent_list';

const agentId = z.string().min(1).max(200).describe('The id agent_send returned for the child');

const operation = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('delegate'),
    role: z.enum(['explorer', 'default']).describe('explorer: reads and searches only; default: may also change files'),
    prompt: z.string().min(1).max(MAX_AGENT_PROMPT).describe('The whole task for the child: it sees nothing of this conversation'),
    idempotencyKey: z.string().min(1).max(200).optional().describe('Repeat a delegate safely: the same key never starts a second child'),
  }),
  z.strictObject({ kind: z.literal('message'), agentId, text: z.string().min(1).max(MAX_AGENT_PROMPT).describe('A follow-up for a child that has ended its round') }),
  z.strictObject({ kind: z.literal('cancel'), agentId }),
]);

const sendSchema = z.strictObject({
  operations: z.array(operation).min(1).max(MAX_AGENT_OPERATIONS).describe(`1–${MAX_AGENT_OPERATIONS} operations; each succeeds or fails on its own`),
});

const awaitSchema = z.strictObject({
  agentIds: z.array(agentId).min(1).max(MAX_AWAIT_TARGETS).describe(`1–${MAX_AWAIT_TARGETS} children to wait for`),
  timeoutMs: z.number().int().min(0).max(MAX_AWAIT_MS).describe(`How long to wait at most, 0–${MAX_AWAIT_MS} ms; 0 reads their state once`),
});

const listSchema = z.strictObject({});

/**
 * The declared type of `agentSendTool`: its input schema's own zod type would name
 * `ZodDiscriminatedUnion` with zod 4.1's two type arguments in the published declarations, which
 * zod 4.0 (the floor of our zod peer range) rejects.
 */
type ControlTool = Tool<ToolInputSchema, ControlContext, SandboxPolicy>;

/** `agent_send` (architecture §4): delegate, message or cancel children; receipts, not results. */

export function agentSendTool(): ControlTool {
  const tool = defineTool<typeof sendSchema, ControlContext, SandboxPolicy>({
    id: AGENT_SEND_TOOL_ID,
    description:
      `Start child agents and talk to them: up to ${MAX_AGENT_OPERATIONS} operations — delegate (a new child with its own session on the same workspace, role explorer or default), message (a follow-up to a child whose round ended) or cancel. ` +
      'A receipt only means the work was accepted and stored. Each result arrives by itself at the start of one of your next requests; keep doing independent work meanwhile, and use agent_await only when you cannot go on without a result.',
    risk: 'read_only',
    inputSchema: sendSchema,
    async execute(input, session) {
      const agents = session.agents;
      if (agents === undefined) return new ToolExecutionError('invalid_arguments', 'This session may not start child agents.');
      const receipts = await agents.send(input.operations);
      const text = receipts.map((receipt, index) => `${index + 1}. ${renderReceipt(receipt)}`).join('\n');
      if (receipts.every((receipt) => !receipt.ok)) return new ToolExecutionError('invalid_arguments', `No operation succeeded:\n${text}`);
      return `${text}\nResults arrive in your mailbox at the start of a later request; agent_await them only when you depend on them.`;
    },
  });
  return tool as unknown as ControlTool;
}

/** `agent_await` (architecture §4): a bounded wait for children to be ready. */
export function agentAwaitTool() {
  return defineTool<typeof awaitSchema, ControlContext, SandboxPolicy>({
    id: AGENT_AWAIT_TOOL_ID,
    description:
      `Wait until children are ready — finished, failed, cancelled, interrupted or waiting for an approval (ready is not success) — or until timeoutMs (at most ${MAX_AWAIT_MS}) has passed; timeoutMs 0 reads their state once. ` +
      'Shows each child\'s state and, for ended ones, the final text. Only wait for results you truly depend on.',
    risk: 'read_only',
    inputSchema: awaitSchema,
    async execute(input, session, call) {
      const agents = session.agents;
      if (agents === undefined) return new ToolExecutionError('invalid_arguments', 'This session has no child agents.');
      const statuses = await agents.wait(input.agentIds, input.timeoutMs, call.signal);
      await agents.markShown(statuses);
      const ready = statuses.filter((status) => status.ready).length;
      const header = `${ready} of ${statuses.length} ready${ready < statuses.length ? ` after ${input.timeoutMs} ms; call agent_await again later, or go on with other work` : ''}.`;
      return [header, ...statuses.map(renderStatus)].join('\n\n');
    },
  });
}

/** `agent_list` (architecture §4): the session's children. */
export function agentListTool() {
  return defineTool<typeof listSchema, ControlContext, SandboxPolicy>({
    id: AGENT_LIST_TOOL_ID,
    description: 'List the child agents of this session: id, role, state, round, age and the start of their task.',
    risk: 'read_only',
    inputSchema: listSchema,
    async execute(_input, session) {
      const agents = session.agents;
      if (agents === undefined) return new ToolExecutionError('invalid_arguments', 'This session has no child agents.');
      const runs = await agents.list();
      if (runs.length === 0) return 'No child agents yet; start one with agent_send.';
      const now = Date.now();
      return runs.map((run) => `${run.id}  ${run.role}  ${run.state}  round ${run.round}  ${age(now, run.createdAt)} old  ${summary(run.prompt)}`).join('\n');
    },
  });
}

function renderReceipt(receipt: AgentReceipt): string {
  if (!receipt.ok) return `${receipt.kind}: error — ${receipt.error}`;
  return `${receipt.kind}: agent ${receipt.run.id} (${receipt.run.role}) is ${receipt.run.state} — ${receipt.note}`;
}

function renderStatus(status: AgentStatus): string {
  const run = status.run;
  if (run === undefined) return `## ${status.agentId}: unknown — no child of this session has this id (agent_list shows them)`;
  const head = `## ${run.id} (${run.role}, round ${run.round}): ${status.state}`;
  if (run.result === null) return status.state === 'waiting_for_approval' ? `${head} — it waits for the user to answer an approval` : `${head} — not ready yet`;
  const error = run.result.error === undefined ? '' : `\nerror: ${run.result.error}`;
  return `${head}${error}\n${run.result.text === '' ? '(no text)' : run.result.text}`;
}

function age(now: number, createdAt: string): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(createdAt)) / 1000));
  return seconds < 120 ? `${seconds}s` : seconds < 7200 ? `${Math.round(seconds / 60)}m` : `${Math.round(seconds / 3600)}h`;
}

function summary(prompt: string): string {
  const line = prompt.replace(/\s+/g, ' ').trim();
  return JSON.stringify(line.length > 100 ? `${line.slice(0, 100)}…` : line);
}

