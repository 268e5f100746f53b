import { generateText, stepCountIs } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { openworkTools } from './index.js';
import { createAiSdkFixture, type AiSdkFixture } from './test-support/ai-sdk-fixture.js';
import { scriptedModel } from './test-support/scripted-model.js';

const fixtures: AiSdkFixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.cleanup()));
});

describe('update_plan through the AI SDK', () => {
  it('update_plan is one of the tools; a call stores the plan with the session and the model reads the summary', async () => {
    const fixture = await createAiSdkFixture();
    fixtures.push(fixture);
    const { session } = fixture;
    const tools = openworkTools(session);
    expect(Object.keys(tools).at(-1)).toBe('update_plan');
    const plan = [
      { step: 'read the code', status: 'completed' },
      { step: 'write the fix', status: 'in_progress' },
    ];
    const { model } = scriptedModel([{ calls: [{ id: 'p1', tool: 'update_plan', input: { plan } }] }, { text: 'Planned.' }]);
    const result = await generateText({ model, tools, prompt: 'Plan the fix.', stopWhen: stepCountIs(5) });
    expect(result.text).toBe('Planned.');
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({ text: 'Plan updated: 1 of 2 steps completed.\n[x] read the code\n[>] write the fix' });
    expect((await session.plan())?.plan).toStrictEqual(plan);
    const refused = await tools.update_plan?.execute?.(
      { plan: [{ step: 'a', status: 'in_progress' }, { step: 'b', status: 'in_progress' }] },
      { toolCallId: 'p2', messages: [], context: {} },
    );
    expect(refused).toMatchObject({ result: { status: 'failed', error: { code: 'invalid_arguments' } } });
    expect((await session.plan())?.plan).toStrictEqual(plan);
  });
});
