import { describe, expect, it } from 'vitest';
import type { CliToolResult } from '../output/tool-result-output.js';
import { MAX_STRUCTURED_CONTENT_BYTES, resultMeta, structuredResult } from './mcp-structured-result.js';

function result(text: string, extras: Partial<CliToolResult> = {}): CliToolResult {
  return { status: 'succeeded', content: [{ type: 'text', text }], artifacts: [], error: null, sandboxDenied: false, ...extras } as CliToolResult;
}

describe('structuredResult', () => {
  it('keeps the whole text at the result cut; the host summary leaves out artifact summaries to stay under 64 KiB', () => {
    const text = `${'line with "quotes" and\ttabs\n'.repeat(1142)}end`;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(32_000);
    const artifacts = Array.from({ length: 400 }, (_, index) => ({ kind: 'note', index, detail: 'x'.repeat(400) }));
    const whole = result(text, { artifacts } as Partial<CliToolResult>);
    expect(structuredResult(whole)).toEqual({ text });
    const summary = resultMeta('call-1', whole);
    expect(summary['artifactsOmitted']).toBeGreaterThan(0);
    expect(Buffer.byteLength(JSON.stringify(summary))).toBeLessThanOrEqual(MAX_STRUCTURED_CONTENT_BYTES);
    expect((summary['artifacts'] as unknown[]).length + Number(summary['artifactsOmitted'])).toBe(400);
  });

  it('names each image of a result, with its type and decoded size, and never its bytes', () => {
    const png = Buffer.alloc(70, 1).toString('base64');
    const jpeg = Buffer.alloc(1_500, 2).toString('base64');
    const structured = structuredResult(
      result('two images', {
        content: [
          { type: 'text', text: 'two images' },
          { type: 'image', mimeType: 'image/png', data: png },
          { type: 'image', mimeType: 'image/jpeg', data: jpeg },
        ],
      } as Partial<CliToolResult>),
    );
    expect(structured['text']).toBe('two images');
    expect(structured['imageNote']).toBe(
      'This result also has 2 images (image/png, 70 bytes; image/jpeg, 1,500 bytes) as MCP image content, which is not part of this structured content; a client that shows the model only structured content does not show it.',
    );
    expect(JSON.stringify(structured)).not.toContain(jpeg);
  });

  it('names the error code only when it says more than isError: never for execution_failed, never the message', () => {
    const failed = (code: string, status: string) =>
      result('why it failed', { status, error: { code, message: 'why it failed', retryable: false } } as unknown as Partial<CliToolResult>);
    expect(structuredResult(failed('execution_failed', 'failed'))).toEqual({ text: 'why it failed' });
    expect(structuredResult(failed('permission_denied', 'denied'))).toEqual({ text: 'why it failed', error: 'permission_denied' });
    expect(structuredResult(failed('timeout', 'failed'))).toEqual({ text: 'why it failed', error: 'timeout' });
    expect(resultMeta('c', failed('timeout', 'failed'))).toEqual({ callId: 'c', status: 'failed', error: { code: 'timeout', retryable: false }, sandboxDenied: false, artifacts: [] });
  });
});
