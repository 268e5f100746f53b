import { access, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionUpdate } from '@openwork/core';
import { generateText, stepCountIs, type ModelMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { openworkTools, type OpenworkToolOutput } from './index.js';
import { createAiSdkFixture, type AiSdkFixture } from './test-support/ai-sdk-fixture.js';
import { scriptedModel } from './test-support/scripted-model.js';

const fixtures: AiSdkFixture[] = [];
async function machine(): Promise<AiSdkFixture> {
  const created = await createAiSdkFixture();
  fixtures.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.cleanup()));
});

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** How many processes of this machine run `sleep <marker>` (read from /proc; nothing is killed here). */
async function sleepersWith(marker: string): Promise<number> {
  let count = 0;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const commandLine = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.split('\0').join(' ').trim() === `sleep ${marker}`) count += 1;
  }
  return count;
}

/** A write outside the workspace with the §7.5 escalation parameters. */
function escalatedWrite(path: string, content: string) {
  return { path, content, sandboxPermissions: { paths: [{ path, access: 'write', scope: 'exact' }] }, justification: 'The user asked for the report there.' };
}

/** The tool results the model received in a prompt, as plain data. */
function toolResultsIn(prompt: readonly unknown[]): { toolCallId: string; output: unknown }[] {
  const results: { toolCallId: string; output: unknown }[] = [];
  for (const message of prompt as { role: string; content: unknown }[]) {
    if (message.role !== 'tool' || !Array.isArray(message.content)) continue;
    for (const part of message.content as { type: string; toolCallId: string; output: unknown }[]) {
      if (part.type === 'tool-result') results.push({ toolCallId: part.toolCallId, output: part.output });
    }
  }
  return results;
}

describe('openworkTools', () => {
  it('one entry per tool of the role, with the same description and JSON Schema', async () => {
    const { session } = await machine();
    const tools = openworkTools(session);
    expect(Object.keys(tools)).toEqual([...session.toolIds]);
    for (const definition of session.definitions) {
      const entry = tools[definition.id];
      expect(entry?.description).toBe(definition.description);
      expect((entry?.inputSchema as { jsonSchema: unknown }).jsonSchema).toEqual(definition.inputSchema);
    }
    const explorer = await session.update({ role: 'explorer' }).then(() => openworkTools(session));
    expect(Object.keys(explorer)).not.toContain('edit');
    expect(Object.keys(explorer)).not.toContain('write');
  });

  it('a loop that reads, edits and greps: files change on disk and the model reads each result text', async () => {
    const { session, workspace } = await machine();
    await writeFile(join(workspace, 'greeting.txt'), 'hello\nworld\n');
    const { model, prompts } = scriptedModel([
      { calls: [{ id: 'c1', tool: 'read', input: { path: 'greeting.txt' } }] },
      { calls: [{ id: 'c2', tool: 'edit', input: { filePath: 'greeting.txt', oldString: 'world', newString: 'OpenWork' } }] },
      { calls: [{ id: 'c3', tool: 'grep', input: { pattern: 'Open' } }] },
      { text: 'Done.' },
    ]);
    const result = await generateText({ model, tools: openworkTools(session), prompt: 'Greet OpenWork.', stopWhen: stepCountIs(10) });

    expect(result.text).toBe('Done.');
    expect(await readFile(join(workspace, 'greeting.txt'), 'utf8')).toBe('hello\nOpenWork\n');
    expect(prompts).toHaveLength(4);
    const seen = toolResultsIn(prompts[3] ?? []);
    expect(seen.map((part) => part.toolCallId)).toEqual(['c1', 'c2', 'c3']);
    const texts = seen.map((part) => part.output as { type: string; value: string });
    expect(texts.map((output) => output.type)).toEqual(['text', 'text', 'text']);
    expect(texts[0]?.value).toContain('world');
    expect(texts[2]?.value).toContain('greeting.txt');
    expect(texts[2]?.value).toContain('OpenWork');
    // The calls are stored in the session under the SDK's ids, so the file change can be undone.
    const [change] = await session.fileChanges();
    const undone = await session.undo([change?.changeId ?? '']);
    expect(undone.ok).toBe(true);
    expect(await readFile(join(workspace, 'greeting.txt'), 'utf8')).toBe('hello\nworld\n');
  });

  it('a failure is a result the model reads as error text, never a throw', async () => {
    const { session, workspace } = await machine();
    const { model, prompts } = scriptedModel([{ calls: [{ id: 'c1', tool: 'read', input: { path: 'missing.txt' } }] }, { text: 'It is missing.' }]);
    const result = await generateText({ model, tools: openworkTools(session), prompt: 'Read it.', stopWhen: stepCountIs(5) });
    expect(result.text).toBe('It is missing.');
    const [seen] = toolResultsIn(prompts[1] ?? []);
    expect(seen?.output).toMatchObject({ type: 'error-text' });
    expect((seen?.output as { value: string }).value).toContain('missing.txt');
    expect(await exists(join(workspace, 'missing.txt'))).toBe(false);
  });

  it('an escalation produces a tool-approval-request; denied, nothing runs and the model sees the denial', async () => {
    const { session, outside } = await machine();
    const target = join(outside, 'report.txt');
    const tools = openworkTools(session);
    const { model, prompts } = scriptedModel([{ calls: [{ id: 'c1', tool: 'write', input: escalatedWrite(target, 'x') }] }, { text: 'Understood.' }]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Write the report outside.' }];
    const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });

    const requests = first.content.filter((part) => part.type === 'tool-approval-request');
    expect(requests).toHaveLength(1);
    expect(requests[0]?.toolCall.toolName).toBe('write');
    expect(first.toolResults).toEqual([]);
    expect(await exists(target)).toBe(false);

    messages.push(...first.response.messages, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: requests[0]?.approvalId ?? '', approved: false, reason: 'not outside the project' }],
    });
    const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
    expect(second.text).toBe('Understood.');
    expect(toolResultsIn(prompts[1] ?? [])).toEqual([{ toolCallId: 'c1', output: { type: 'execution-denied', reason: 'not outside the project' } }]);
    expect(await exists(target)).toBe(false);
  });

  it('the same escalation approved runs with exactly that call widened; the next write there is denied', async () => {
    const { session, outside } = await machine();
    const target = join(outside, 'report.txt');
    const tools = openworkTools(session);
    const { model, prompts } = scriptedModel([
      { calls: [{ id: 'c1', tool: 'write', input: escalatedWrite(target, 'approved\n') }] },
      { calls: [{ id: 'c2', tool: 'write', input: { path: target, content: 'again\n' } }] },
      { text: 'Written once.' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Write the report outside.' }];
    const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toBeDefined();

    messages.push(...first.response.messages, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: request?.approvalId ?? '', approved: true }],
    });
    const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
    expect(second.text).toBe('Written once.');
    expect(await readFile(target, 'utf8')).toBe('approved\n');
    const seen = toolResultsIn(prompts[2] ?? []);
    expect(seen.map((part) => [part.toolCallId, (part.output as { type: string }).type])).toEqual([
      ['c1', 'text'],
      ['c2', 'error-text'],
    ]);
    expect((seen[1]?.output as { value: string }).value).toMatch(/^Permission denied: .*report\.txt is outside the writable roots/);
  });

  it('a tier-1 target is denied without asking', async () => {
    const { session } = await machine();
    const tools = openworkTools(session);
    const { model, prompts } = scriptedModel([
      { calls: [{ id: 'c1', tool: 'write', input: escalatedWrite('~/.openwork/config.json', '{}') }] },
      { text: 'Cannot.' },
    ]);
    const result = await generateText({ model, tools, prompt: 'Change the config.', stopWhen: stepCountIs(5) });
    expect(result.content.filter((part) => part.type === 'tool-approval-request')).toEqual([]);
    const [seen] = toolResultsIn(prompts[1] ?? []);
    expect(seen?.output).toMatchObject({ type: 'error-text' });
    expect(result.text).toBe('Cannot.');
  });

  it('artifacts never appear in the messages sent to the model; the host gets them in the output and the updates', async () => {
    const { session, workspace } = await machine();
    await writeFile(join(workspace, 'notes.txt'), 'alpha\nSECRET-BEFORE\n');
    const updates: SessionUpdate[] = [];
    session.subscribe((update) => {
      updates.push(update);
    });
    const { model, prompts } = scriptedModel([
      { calls: [{ id: 'c1', tool: 'read', input: { path: 'notes.txt' } }] },
      { calls: [{ id: 'c2', tool: 'edit', input: { filePath: 'notes.txt', oldString: 'SECRET-BEFORE', newString: 'replaced' } }] },
      { text: 'Edited.' },
    ]);
    const result = await generateText({ model, tools: openworkTools(session), prompt: 'Edit.', stopWhen: stepCountIs(5) });

    const editOutput = result.steps[1]?.toolResults[0]?.output as OpenworkToolOutput;
    expect(editOutput.result.artifacts.map((artifact) => artifact.kind)).toContain('file_change');
    const finished = updates.find((update) => update.type === 'tool_call_finished' && update.toolId === 'edit');
    expect(finished?.type === 'tool_call_finished' && finished.result.artifacts.length).toBeGreaterThan(0);

    const sent = JSON.stringify(prompts);
    expect(sent).not.toContain('file_change');
    expect(sent).not.toContain('beforeContent');
    expect(sent).not.toContain('hunks');
    const afterEdit = toolResultsIn(prompts[2] ?? []);
    expect(afterEdit[1]?.output).toEqual({ type: 'text', value: editOutput.text });
    expect(JSON.stringify(result.response.messages)).not.toContain('file_change');
  });

  it('a model that reuses call ids (call_0 every turn) still gets each call stored, under a fresh id the output names', async () => {
    const { session, workspace } = await machine();
    await writeFile(join(workspace, 'a.txt'), 'one\n');
    const tools = openworkTools(session);
    const outputs: OpenworkToolOutput[] = [];
    for (const [from, to] of [['one', 'two'], ['two', 'three']] as const) {
      const { model } = scriptedModel([
        { calls: [{ id: 'call_0', tool: 'read', input: { path: 'a.txt' } }, { id: 'call_1', tool: 'edit', input: { filePath: 'a.txt', oldString: from, newString: to } }] },
        { text: 'ok' },
      ]);
      const result = await generateText({ model, tools, prompt: 'Edit.', stopWhen: stepCountIs(5) });
      outputs.push(...(result.steps[0]?.toolResults.map((part) => part.output as OpenworkToolOutput) ?? []));
    }
    expect(outputs.map((output) => output.result.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(outputs[0]?.callId).toBe('call_0');
    expect(outputs[1]?.callId).toBe('call_1');
    expect(outputs[2]?.callId).not.toBe('call_0');
    expect(outputs[3]?.callId).not.toBe('call_1');
    expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('three\n');
    const changes = await session.fileChanges();
    expect(changes).toHaveLength(2);
    expect((await session.undo(changes.map((change) => change.changeId))).ok).toBe(true);
    expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it("an aborted call rejects with the signal's reason (the SDK's abort semantics) and runs nothing", async () => {
    const { session, workspace } = await machine();
    await writeFile(join(workspace, 'a.txt'), 'a\n');
    const tools = openworkTools(session);
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    await expect(tools.read?.execute?.({ path: 'a.txt' }, { toolCallId: 'c1', messages: [], context: {}, abortSignal: controller.signal })).rejects.toBe(reason);
    expect(await session.messages()).toEqual([]);
  });

  it('aborting generateText while a call runs cancels it in core, stores the cancelled result and rejects with the reason', async () => {
    const { session, workspace } = await machine();
    await writeFile(join(workspace, 'a.txt'), 'a\n');
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    session.subscribe((update) => {
      if (update.type === 'tool_call_started') controller.abort(reason);
    });
    const { model } = scriptedModel([{ calls: [{ id: 'c1', tool: 'grep', input: { pattern: 'a' } }] }, { text: 'never asked' }]);
    await expect(generateText({ model, tools: openworkTools(session), prompt: 'Search.', abortSignal: controller.signal, stopWhen: stepCountIs(5) })).rejects.toBe(reason);
    const stored = (await session.messages()).filter((message) => message.role === 'tool');
    expect(stored.map((message) => message.role === 'tool' && message.result.status)).toEqual(['cancelled']);
  });

  it('execute itself rejects with the reason when its signal aborts while core runs the call (not a cancelled output)', async () => {
    const { session, workspace } = await machine();
    await writeFile(join(workspace, 'a.txt'), 'a\n');
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    session.subscribe((update) => {
      if (update.type === 'tool_call_started') controller.abort(reason);
    });
    const tools = openworkTools(session);
    await expect(tools.grep?.execute?.({ pattern: 'a' }, { toolCallId: 'c1', messages: [], context: {}, abortSignal: controller.signal })).rejects.toBe(reason);
    const stored = (await session.messages()).filter((message) => message.role === 'tool');
    expect(stored.map((message) => message.role === 'tool' && message.result.status)).toEqual(['cancelled']);
  });

  it('abort mid-bash leaves no process: the command is killed, the call cancelled, execute rejects with the reason', async () => {
    const { session, workspace } = await machine();
    const marker = `${Math.floor(Math.random() * 1e6) + 1000}.25`;
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    const tools = openworkTools(session);
    const running = tools.bash?.execute?.({ command: `echo started > started.txt; sleep ${marker}` }, { toolCallId: 'c1', messages: [], context: {}, abortSignal: controller.signal });
    const rejection = expect(running).rejects.toBe(reason);
    // The command's writes are staged until it ends (architecture §3.10): its sleep shows it runs.
    while ((await sleepersWith(marker)) === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort(reason);
    await rejection;
    expect(await sleepersWith(marker)).toBe(0);
    const stored = (await session.messages()).filter((message) => message.role === 'tool');
    expect(stored.map((message) => message.role === 'tool' && message.result.status)).toEqual(['cancelled']);
  });

  it('a dangerous command produces a tool-approval-request; denied, it never runs', async () => {
    const { session, workspace } = await machine();
    await writeFile(join(workspace, 'keep.txt'), 'keep\n');
    const tools = openworkTools(session);
    const { model, prompts } = scriptedModel([{ calls: [{ id: 'c1', tool: 'bash', input: { command: 'rm -rf ~' } }] }, { text: 'Understood.' }]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Clean up.' }];
    const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request?.toolCall.toolName).toBe('bash');
    messages.push(...first.response.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request?.approvalId ?? '', approved: false }] });
    await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
    expect(toolResultsIn(prompts[1] ?? [])).toEqual([{ toolCallId: 'c1', output: { type: 'execution-denied' } }]);
    expect(await readFile(join(workspace, 'keep.txt'), 'utf8')).toBe('keep\n');
  });

});
