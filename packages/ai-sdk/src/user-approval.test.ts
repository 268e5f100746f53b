import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateText, simulateReadableStream, stepCountIs, streamText, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { openworkTools } from './index.js';
import { createAiSdkFixture, type AiSdkFixture } from './test-support/ai-sdk-fixture.js';
import { scriptedModel } from './test-support/scripted-model.js';
import { NO_USER_APPROVAL_REASON } from './user-approval.js';

const fixtures: AiSdkFixture[] = [];
async function machine(): Promise<AiSdkFixture> {
  const created = await createAiSdkFixture();
  fixtures.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.cleanup()));
});

/** One part of a mock model's stream (the SDK's `LanguageModelV3StreamPart`). */
type StreamChunk = Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer Part> ? Part : never;

const exists = (path: string) => access(path).then(() => true, () => false);

/** A write outside the workspace with the §7.5 escalation parameters. */
function escalatedWrite(path: string, content: string) {
  return { path, content, sandboxPermissions: { paths: [{ path, access: 'write', scope: 'exact' }] }, justification: 'The user asked for it there.' };
}

/** What the model read for each tool call of a prompt: `[toolCallId, output type, text]`. */
function toolResultsIn(prompt: readonly unknown[]): [string, string, string][] {
  const results: [string, string, string][] = [];
  for (const message of prompt as { role: string; content: unknown }[]) {
    if (message.role !== 'tool' || !Array.isArray(message.content)) continue;
    for (const part of message.content as { type: string; toolCallId: string; output: { type: string; value?: unknown } }[]) {
      if (part.type === 'tool-result') results.push([part.toolCallId, part.output.type, String(part.output.value ?? '')]);
    }
  }
  return results;
}

// ai 7's `generateText({ toolApproval })` takes precedence over the tool's `needsApproval`: a host
// configuration can make the SDK run an escalation without asking anyone (architecture §4, §3.3).
describe('only a person approves an escalation, whatever the host configures (ai 7 toolApproval)', () => {
  it("a toolApproval that answers not-applicable runs the call unasked: core denies it, nothing is written, the model reads why", async () => {
    const { session, outside } = await machine();
    const target = join(outside, 'report.txt');
    const { model, prompts } = scriptedModel([{ calls: [{ id: 'c1', tool: 'write', input: escalatedWrite(target, 'x\n') }] }, { text: 'Done.' }]);
    const result = await generateText({ model, tools: openworkTools(session), prompt: 'Write it.', toolApproval: () => undefined, stopWhen: stepCountIs(5) });
    expect(result.content.filter((part) => part.type === 'tool-approval-request')).toEqual([]);
    expect(await exists(target)).toBe(false);
    const [seen] = toolResultsIn(prompts[1] ?? []);
    expect(seen?.slice(0, 2)).toEqual(['c1', 'error-text']);
    expect(seen?.[2]).toContain(NO_USER_APPROVAL_REASON);
    const stored = (await session.messages()).filter((message) => message.role === 'tool');
    expect(stored.map((message) => message.role === 'tool' && message.result.status)).toEqual(['denied']);
  });

  it("a toolApproval that answers approved is the host's word, not the user's: the escalation is denied", async () => {
    const { session, outside } = await machine();
    const target = join(outside, 'report.txt');
    const { model } = scriptedModel([{ calls: [{ id: 'c1', tool: 'write', input: escalatedWrite(target, 'x\n') }] }, { text: 'Done.' }]);
    await generateText({ model, tools: openworkTools(session), prompt: 'Write it.', toolApproval: { write: 'approved' }, stopWhen: stepCountIs(5) });
    expect(await exists(target)).toBe(false);
  });

  it('a model that reuses an approved call id for another input does not inherit the approval', async () => {
    const { session, outside } = await machine();
    const approvedTarget = join(outside, 'a.txt');
    const otherTarget = join(outside, 'b.txt');
    const tools = openworkTools(session);
    const { model, prompts } = scriptedModel([
      { calls: [{ id: 'call_0', tool: 'write', input: escalatedWrite(approvedTarget, 'a\n') }] },
      // The next step reuses `call_0` for a write the user never saw; the host's toolApproval skips asking.
      { calls: [{ id: 'call_0', tool: 'write', input: escalatedWrite(otherTarget, 'b\n') }] },
      { text: 'Done.' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Write a.txt.' }];
    const first = await generateText({ model, tools, messages });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request?.toolCall.toolCallId).toBe('call_0');
    messages.push(...first.responseMessages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request?.approvalId ?? '', approved: true }] });
    let asked = 0;
    await generateText({
      model,
      tools,
      messages,
      stopWhen: stepCountIs(5),
      toolApproval: () => {
        asked += 1;
        return undefined;
      },
    });
    expect(asked).toBeGreaterThanOrEqual(1);
    expect(await readFile(approvedTarget, 'utf8')).toBe('a\n');
    expect(await exists(otherTarget)).toBe(false);
    expect(toolResultsIn(prompts[2] ?? []).map((seen) => seen.slice(0, 2))).toEqual([
      ['call_0', 'text'],
      ['call_0', 'error-text'],
    ]);
  });

  it("streamText (the chat path): the user's approval in the messages runs the escalation, and only it", async () => {
    const { session, outside } = await machine();
    const target = join(outside, 'report.txt');
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
    const finish = (unified: 'tool-calls' | 'stop') => ({ type: 'finish' as const, finishReason: { unified, raw: undefined }, usage });
    const answers: StreamChunk[][] = [
      [{ type: 'tool-call' as const, toolCallId: 'c1', toolName: 'write', input: JSON.stringify(escalatedWrite(target, 'streamed\n')) }, finish('tool-calls')],
      [{ type: 'text-start' as const, id: 't' }, { type: 'text-delta' as const, id: 't', delta: 'Written.' }, { type: 'text-end' as const, id: 't' }, finish('stop')],
    ];
    const model = new MockLanguageModelV3({ doStream: answers.map((chunks) => ({ stream: simulateReadableStream({ chunks }) })) });
    const tools = openworkTools(session);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Write the report outside.' }];
    const first = streamText({ model, tools, messages });
    const requests = (await first.content).filter((part) => part.type === 'tool-approval-request');
    expect(requests.map((part) => part.toolCall.toolCallId)).toEqual(['c1']);
    expect(await exists(target)).toBe(false);
    messages.push(...(await first.response).messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: requests[0]?.approvalId ?? '', approved: true }] });
    const second = streamText({ model, tools, messages });
    expect(await second.text).toBe('Written.');
    expect(await readFile(target, 'utf8')).toBe('streamed\n');
  });

  it("a host calling a tool's execute itself, without the user's answer in the messages, gets the denial", async () => {
    const { session, outside } = await machine();
    const target = join(outside, 'report.txt');
    const output = await openworkTools(session).write?.execute?.(escalatedWrite(target, 'x\n'), { toolCallId: 'c1', messages: [], context: {} });
    expect(output).toMatchObject({ result: { status: 'denied' } });
    expect(await exists(target)).toBe(false);
  });
});
