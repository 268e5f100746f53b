import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('README', () => {
  it('the example runs against the public entry point and prints what it claims', async () => {
    const readme = await readFile(join(packageDirectory, 'README.md'), 'utf8');
    const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const runnable = (example ?? '')
      .replace("from '@openwork/tools-contract'", `from ${JSON.stringify(pathToFileURL(join(packageDirectory, 'src', 'index.ts')).href)}`)
      .replace("from 'zod'", `from ${JSON.stringify(pathToFileURL(join(packageDirectory, 'node_modules', 'zod', 'index.js')).href)}`);
    const directory = await mkdtemp(join(tmpdir(), 'ow-contract-readme-'));
    const logged: unknown[][] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => {
      logged.push(parts);
    });
    try {
      const file = join(directory, 'example.ts');
      await writeFile(file, `${runnable}\nexport {};\n`);
      await import(/* @vite-ignore */ pathToFileURL(file).href);
    } finally {
      log.mockRestore();
      await rm(directory, { recursive: true, force: true });
    }
    const lines = logged.map((parts) => parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' '));
    expect(JSON.parse(lines[0] ?? '').map((definition: { id: string }) => definition.id)).toEqual(['read_note', 'write_note']);
    expect(lines[1]).toMatch(/^toolset digest [0-9a-f]{64}$/);
    expect(lines).toContain('inspection {"kind":"writes","target":"todo"}');
    expect(lines).toContain('progress {"kind":"message","message":"saving todo"}');
    expect(lines).toContain('succeeded Saved todo [{"kind":"note_saved","name":"todo"}]');
    expect(lines).toContain(
      'invalid_arguments invalid tool input: name: missing required field (expected string); unknown field "nam" (remove it). Fix the arguments to match the input schema of "read_note" and call it again.',
    );
    expect(lines.at(-1)).toBe('tool_not_found');
  });
});
