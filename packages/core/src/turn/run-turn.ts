import type { NewMessage, StoredMessage, StoredToolMessage } from '@openwork/session-store';
import { ToolResult } from '@openwork/tools-contract';
import type { Approver } from '../call/approval.js';
import { runToolCall, type ToolCallHost } from '../call/run-tool-call.js';
import { toModelMessages } from '../model/to-model-messages.js';
import type { RecordableToolCall } from '../session/recordable-tool-call.js';
import { collectModelResponse, type StreamedToolCall } from './collect-model-response.js';
import { DEFAULT_MAX_STEPS, type TurnOptions } from './turn-options.js';
import type { TurnOutcome, TurnStatus } from './turn-outcome.js';

/** What a turn needs from its session. */
export interface TurnHost extends ToolCallHost {
  append(message: NewMessage): Promise<StoredMessage>;
  loadMessages(): Promise<readonly StoredMessage[]>;
  /** A recordable call with an id unique in the session; the id is taken from then on. */
  recordableCall(streamed: StreamedToolCall): Promise<RecordableToolCall>;
  /** A signal for one call, derived from `turnSignal` (§5), that the session can also abort alone. */
  callSignal(callId: string, turnSignal: AbortSignal): { readonly signal: AbortSignal; release(): void };
  /** Records a call's result and publishes `tool_call_finished` after its progress (§8.3). */
  finishCall(call: RecordableToolCall, turnId: string, result: ToolResult): Promise<StoredToolMessage>;
  /** The completion mailbox (architecture §4): child results not yet delivered, appended as messages now. */
  deliverMailbox(known: (messageId: string) => boolean): Promise<readonly StoredMessage[]>;
}

/** @internal How a turn begins: with the user's message (under `inputMessageId` if given), or resuming the stored conversation. */
export interface TurnStart {
  readonly inputMessageId?: string;
  /** A child's round cut off by a crash: go on from its stored messages (architecture §4). */
  readonly resume?: boolean;
}

/**
 * A model turn (architecture §4, spec §5): store the user's message, then ask the model with the
 * conversation as it sees it and the toolset's definitions; store its answer; run its tool calls
 * in order, one at a time, each under a signal derived from the turn's, storing each result;
 * repeat until the model answers without tool calls. An unknown tool is a `tool_not_found` result
 * and the model goes on. Cancelling the turn cancels the running call, marks the calls not yet
 * started as cancelled (so the conversation stays valid for every provider), and ends the turn
 * `cancelled`. Never throws: a failing model or store ends the turn `failed`.
 */
export async function runTurn(
  host: TurnHost,
  options: TurnOptions,
  turnId: string,
  signal: AbortSignal,
  approver: Approver | undefined,
  start: TurnStart = {},
): Promise<TurnOutcome> {
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const stored: StoredMessage[] = [];
  let steps = 0;
  let text = '';
  const finish = (status: TurnStatus, error?: string): TurnOutcome => {
    host.publish({ type: 'turn_finished', sessionId: host.sessionId, turnId, status, ...(error === undefined ? {} : { error }) });
    return Object.freeze({ turnId, status, ...(error === undefined ? {} : { error }), text, messages: Object.freeze([...stored]), steps });
  };
  const append = async (message: NewMessage): Promise<StoredMessage> => {
    const record = await host.append(message);
    stored.push(record);
    return record;
  };

  host.publish({ type: 'turn_started', sessionId: host.sessionId, turnId });
  try {
    if (start.resume !== true) await append({ ...(start.inputMessageId === undefined ? {} : { id: start.inputMessageId }), role: 'user', text: options.input });
    const conversation = [...(await host.loadMessages())];
    if (start.resume === true) {
      for (const message of await answerCutOffCalls(conversation, append)) conversation.push(message);
      const last = conversation.at(-1);
      if (last?.role === 'assistant' && last.toolCalls.length === 0) {
        text = last.text;
        return finish('completed');
      }
    }
    for (;;) {
      if (signal.aborted) return finish('cancelled');
      if (steps >= maxSteps) return finish('max_steps');
      steps += 1;
      const ids = new Set(conversation.map((message) => message.id));
      for (const message of await host.deliverMailbox((id) => ids.has(id))) {
        stored.push(message);
        conversation.push(message);
      }
      const response = await askModel(host, options, conversation, turnId, signal);
      const metadata = response.metadata === undefined ? {} : { metadata: response.metadata };
      if (response.outcome !== 'complete') {
        // Calls of an unfinished answer never ran: keep only its text.
        if (response.text !== '') {
          conversation.push(await append({ role: 'assistant', text: response.text, ...metadata }));
          text = response.text;
        }
        return response.outcome === 'cancelled' ? finish('cancelled') : finish('failed', response.error);
      }
      const calls: RecordableToolCall[] = [];
      for (const streamed of response.toolCalls) calls.push(await host.recordableCall(streamed));
      conversation.push(
        await append({
          role: 'assistant',
          text: response.text,
          toolCalls: calls.map((call) => ({ id: call.id, toolId: call.toolId, input: call.input })),
          ...metadata,
        }),
      );
      text = response.text;
      if (calls.length === 0) return finish('completed');
      for (const call of calls) {
        const message = await runRecordedCall(host, call, turnId, signal, approver);
        stored.push(message);
        conversation.push(message);
      }
      if (signal.aborted) return finish('cancelled');
    }
  } catch (error) {
    return finish(signal.aborted ? 'cancelled' : 'failed', signal.aborted ? undefined : describeFailure(error));
  }
}

/** One model request with the conversation as the model sees it and every tool the turn offers; text streams as `assistant_text`. */
function askModel(host: TurnHost, options: TurnOptions, conversation: readonly StoredMessage[], turnId: string, signal: AbortSignal): ReturnType<typeof collectModelResponse> {
  return collectModelResponse(
    options.model,
    {
      sessionId: host.sessionId,
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      messages: toModelMessages(conversation),
      tools: host.controls === undefined ? host.toolset.definitions : [...host.toolset.definitions, ...host.controls.definitions],
    },
    signal,
    (piece) => host.publish({ type: 'assistant_text', sessionId: host.sessionId, turnId, text: piece }),
  );
}

/** One call of the model's answer, under its own signal derived from the turn's (§5), its result stored. */
async function runRecordedCall(host: TurnHost, call: RecordableToolCall, turnId: string, signal: AbortSignal, approver: Approver | undefined): Promise<StoredToolMessage> {
  const callSignal = host.callSignal(call.id, signal);
  let result: ToolResult;
  try {
    result = await runToolCall(host, { callId: call.id, toolId: call.toolId, input: call.input, turnId, signal: callSignal.signal, approver });
  } finally {
    callSignal.release();
  }
  return host.finishCall(call, turnId, result);
}

/**
 * A resumed round may have calls whose results were never stored (the host died while they ran).
 * They are not run again — they may have taken effect — but answered `outcome_unknown`, so the
 * conversation stays valid for every provider and the model can check before repeating them.
 */
async function answerCutOffCalls(conversation: readonly StoredMessage[], append: (message: NewMessage) => Promise<StoredMessage>): Promise<StoredMessage[]> {
  const answered = new Set(conversation.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
  const added: StoredMessage[] = [];
  for (const message of conversation) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls) {
      if (answered.has(call.id)) continue;
      const result = ToolResult.failure({
        code: 'outcome_unknown',
        message: `The host running this ${call.toolId} call stopped before its result was stored; it may or may not have taken effect. Check before repeating it.`,
      });
      added.push(await append({ role: 'tool', toolCallId: call.id, toolId: call.toolId, result }));
    }
  }
  return added;
}

function describeFailure(error: unknown): string {
  return `the turn could not go on: ${error instanceof Error ? error.message : String(error)}`;
}
