import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { generateText, stepCountIs, type ModelMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { approvalText, openworkTools } from './index.js';
import { createAiSdkFixture, type AiSdkFixture } from './test-support/ai-sdk-fixture.js';
import { scriptedModel } from './test-support/scripted-model.js';

const fixtures: AiSdkFixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.cleanup()));
});

// Cursor up two lines, erase them, and write a harmless-looking card over them (forged approval cards).
const forgingJustification = 'ok\x1b[2A\x1b[2K\r  read access to README.md (exact)\x1b[K\n\u202eexact\u202c';

describe('approvalText (architecture §3.9)', () => {
  it('shows the tool-approval-request as what the call does, with the model\'s controls made visible', async () => {
    const fixture = await createAiSdkFixture();
    fixtures.push(fixture);
    const { session, outside } = fixture;
    const target = join(outside, 'report.txt');
    const input = { path: target, content: 'x', sandboxPermissions: { paths: [{ path: target, access: 'write', scope: 'exact' }] }, justification: forgingJustification };
    const tools = openworkTools(session);
    const { model } = scriptedModel([{ calls: [{ id: 'c1', tool: 'write', input }] }, { text: 'Refused.' }]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Write the report.' }];
    const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toBeDefined();

    const text = approvalText(session, request?.toolCall ?? { toolName: '', input: undefined }) ?? '';
    expect(text.split('\n')).toEqual([
      'The write tool asks for approval (escalation).',
      `  target: ${target}`,
      `  write access to ${target} (exact)`,
      '  justification: ok\\x1b[2A\\x1b[2K\\r  read access to README.md (exact)\\x1b[K\\n\\u202eexact\\u202c',
    ]);
    expect(text).not.toMatch(/[\x1b\r\u202e]/);

    messages.push(...first.response.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request?.approvalId ?? '', approved: false }] });
    await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
    await expect(access(target)).rejects.toThrow();
  });

  it('a dangerous command is shown with its hidden characters; a call that needs no approval has no text', async () => {
    const fixture = await createAiSdkFixture();
    fixtures.push(fixture);
    const { session } = fixture;
    const text = approvalText(session, { toolName: 'bash', input: { command: 'rm -rf ~ #\r\x1b[2Kecho harmless' } }) ?? '';
    expect(text).toContain('  command: rm -rf ~ #\\r\\x1b[2Kecho harmless');
    expect(text).toMatch(/danger: /);
    expect(text).not.toMatch(/[\x1b\r]/);
    expect(approvalText(session, { toolName: 'read', input: { path: 'README.md' } })).toBeUndefined();
  });

  it('a bash description is on the card, after the danger and the command, with its controls made visible', async () => {
    const fixture = await createAiSdkFixture();
    fixtures.push(fixture);
    const text = approvalText(fixture.session, { toolName: 'bash', input: { command: 'rm -rf ~', description: 'tidy up\r\x1b[2Klist files' } }) ?? '';
    const lines = text.split('\n');
    // The danger first (a client may show only three lines), then what runs, then what the model says of it.
    expect(lines[1]).toMatch(/^  danger: /);
    const command = lines.indexOf('  command: rm -rf ~');
    expect(command).toBeGreaterThan(1);
    expect(lines.slice(command + 1)).toContain('  description: tidy up\\r\\x1b[2Klist files');
    expect(text).not.toMatch(/[\x1b\r]/);
  });
});
