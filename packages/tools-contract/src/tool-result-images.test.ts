import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineTool, MAX_RESULT_BYTES, MAX_RESULT_IMAGE_BYTES, MAX_RESULT_IMAGES, ToolRegistryBuilder, ToolResult, type ToolOutput } from './index.js';
import { boundResultImages } from './bound-result-images.js';
import { callContext } from './test-support/call-context.js';

function base64Of(size: number): string {
  return Buffer.alloc(size, 7).toString('base64');
}

function toolsetReturning(output: () => ToolOutput) {
  const tool = defineTool({
    id: 'show',
    description: 'Show something.',
    risk: 'read_only',
    inputSchema: z.strictObject({}),
    execute: () => output(),
  });
  return new ToolRegistryBuilder<undefined>().register(tool).finalize({ tools: ['show'] }, undefined);
}

describe('image parts of a result', () => {
  it('a success carries its text first, then its images, frozen and JSON-serialisable', async () => {
    const data = base64Of(10);
    const toolset = toolsetReturning(() => ({ text: 'image/png 1×1, 10 bytes', images: [{ type: 'image', mimeType: 'image/png', data }] }));
    const result = await toolset.call('show', {}, callContext());
    expect(result.content).toEqual([
      { type: 'text', text: 'image/png 1×1, 10 bytes' },
      { type: 'image', mimeType: 'image/png', data },
    ]);
    expect(Object.isFrozen(result.content[1])).toBe(true);
    expect(ToolResult.text(result)).toBe('image/png 1×1, 10 bytes');
    expect(ToolResult.images(result)).toEqual([{ type: 'image', mimeType: 'image/png', data }]);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('a failure carries no images', () => {
    const result = ToolResult.failure({ code: 'execution_failed', message: 'no' }, { images: [{ type: 'image', mimeType: 'image/png', data: base64Of(3) }] });
    expect(result.content).toEqual([{ type: 'text', text: 'no' }]);
  });

  it('an invalid image from a tool is an execution failure that names the problem', async () => {
    const cases: [unknown, string][] = [
      [{ type: 'image', mimeType: 'image/svg+xml', data: base64Of(3) }, "show returned an invalid image: an image's mimeType must be one of image/png, image/jpeg, image/gif, image/webp."],
      [{ type: 'image', mimeType: 'image/png', data: 'not base64!' }, "show returned an invalid image: an image's data must be non-empty, padded standard base64."],
      [{ type: 'image', mimeType: 'image/png', data: 'data:image/png;base64,AAAA' }, "show returned an invalid image: an image's data must be non-empty, padded standard base64."],
      [{ type: 'picture', mimeType: 'image/png', data: base64Of(3) }, 'show returned an invalid image: an image part must have type "image".'],
    ];
    for (const [image, message] of cases) {
      const toolset = toolsetReturning(() => ({ text: 'x', images: [image] }) as unknown as ToolOutput);
      const result = await toolset.call('show', {}, callContext());
      expect(result.status).toBe('failed');
      expect(ToolResult.text(result)).toBe(message);
      expect(ToolResult.images(result)).toEqual([]);
    }
  });

  it('the 32,000-byte cut applies to the text only and keeps the images', async () => {
    const data = base64Of(100_000);
    const toolset = toolsetReturning(() => ({ text: 'x\n'.repeat(40_000), images: [{ type: 'image', mimeType: 'image/webp', data }] }));
    const result = await toolset.call('show', {}, callContext());
    expect(Buffer.byteLength(ToolResult.text(result))).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect(ToolResult.text(result)).toContain('bytes omitted');
    expect(ToolResult.images(result)).toEqual([{ type: 'image', mimeType: 'image/webp', data }]);
  });

  it('images past 5 MiB in total or past 20 parts are left out, in order, and the text says so', async () => {
    const big = base64Of(3 * 1024 * 1024);
    const toolset = toolsetReturning(() => ({
      text: 'two big images',
      images: [
        { type: 'image', mimeType: 'image/png', data: big },
        { type: 'image', mimeType: 'image/jpeg', data: big },
      ],
    }));
    const result = await toolset.call('show', {}, callContext());
    expect(ToolResult.images(result).map((image) => image.mimeType)).toEqual(['image/png']);
    expect(ToolResult.text(result)).toBe(
      `two big images\n[1 image (${3 * 1024 * 1024} bytes) left out: a result carries at most ${MAX_RESULT_IMAGES} images and ${MAX_RESULT_IMAGE_BYTES} bytes of image data. Ask for fewer images at a time.]`,
    );

    const many = ToolResult.success('many', { images: Array.from({ length: 25 }, () => ({ type: 'image' as const, mimeType: 'image/gif' as const, data: base64Of(3) })) });
    const bounded = boundResultImages(many);
    expect(ToolResult.images(bounded)).toHaveLength(MAX_RESULT_IMAGES);
    expect(ToolResult.text(bounded)).toMatch(/^many\n\[5 images \(15 bytes\) left out: /);
    // Within the bound nothing changes.
    const one = ToolResult.success('one', { images: [{ type: 'image', mimeType: 'image/gif', data: base64Of(3) }] });
    expect(boundResultImages(one)).toBe(one);
  });
});
