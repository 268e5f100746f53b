import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateText, stepCountIs } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { modelToolOutput, openworkTools, type OpenworkToolOutput } from './index.js';
import { createAiSdkFixture, type AiSdkFixture } from './test-support/ai-sdk-fixture.js';
import { pngFile } from './test-support/png-file.js';
import { scriptedModel } from './test-support/scripted-model.js';

let fixture: AiSdkFixture | undefined;
afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

/** The tool-result outputs of a prompt, by call id. */
function outputsIn(prompt: readonly unknown[]): Map<string, unknown> {
  const outputs = new Map<string, unknown>();
  for (const message of prompt as { role: string; content: unknown }[]) {
    if (message.role !== 'tool' || !Array.isArray(message.content)) continue;
    for (const part of message.content as { type: string; toolCallId: string; output: unknown }[]) {
      if (part.type === 'tool-result') outputs.set(part.toolCallId, part.output);
    }
  }
  return outputs;
}

describe('openworkTools with images', () => {
  it('toModelOutput sends a read PNG as an image part after its text (image-data; ai 7 hands the provider file-data); text-only results stay text', async () => {
    fixture = await createAiSdkFixture();
    const png = pngFile(5, 4);
    await writeFile(join(fixture.workspace, 'chart.png'), png);
    await mkdir(join(fixture.workspace, 'docs'));
    const { model, prompts } = scriptedModel([
      { calls: [{ id: 'c1', tool: 'read', input: { path: 'chart.png' } }, { id: 'c2', tool: 'read', input: { path: 'docs' } }, { id: 'c3', tool: 'read', input: { path: 'gone.png' } }] },
      { text: 'A chart.' },
    ]);
    const result = await generateText({ model, tools: openworkTools(fixture.session), prompt: 'Describe chart.png', stopWhen: stepCountIs(5) });
    expect(result.text).toBe('A chart.');
    const caption = `image/png 5×4, ${png.length} bytes`;
    const outputs = outputsIn(prompts[1] ?? []);
    // What the provider receives: ai 7 converts the adapter's image-data part into its own file
    // part (`file-data` now; its shape has changed between 7.x releases), the PNG's bytes intact.
    const received = outputs.get('c1') as { type: string; value: { type: string; text?: string; mediaType?: string }[] };
    expect(received.type).toBe('content');
    expect(received.value[0]).toEqual({ type: 'text', text: caption });
    expect(received.value).toHaveLength(2);
    expect(received.value[1]?.mediaType).toBe('image/png');
    expect(JSON.stringify(received.value[1])).toContain(png.toString('base64'));
    expect(outputs.get('c2')).toEqual({ type: 'text', value: '[empty directory]' });
    expect(outputs.get('c3')).toMatchObject({ type: 'error-text' });
    // The host's own record keeps the whole result, the image part included.
    const host = result.steps[0]?.toolResults.find((part) => part.toolCallId === 'c1')?.output as OpenworkToolOutput;
    expect(host.text).toBe(caption);
    expect(host.result.content[1]).toEqual({ type: 'image', mimeType: 'image/png', data: png.toString('base64') });
    // What the adapter sends: image-data, the part both ai 6 and ai 7 accept.
    expect(modelToolOutput(host).value[1]).toEqual({ type: 'image-data', data: png.toString('base64'), mediaType: 'image/png' });
  });
});
