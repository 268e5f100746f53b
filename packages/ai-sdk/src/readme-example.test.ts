import { randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');
const packagesDirectory = join(packageDirectory, '..');

/**
 * Runs the README's first ```ts block as written, with `@openwork/<name>` pointed at the workspace
 * sources. The file is written inside this package (not a temp dir) so `ai` and `ai/test`
 * resolve from its dependencies, as they would in a user's project.
 */
async function runReadmeExample(index = 0): Promise<string[]> {
  const readme = await readFile(join(packageDirectory, 'README.md'), 'utf8');
  const example = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)][index]?.[1];
  if (example === undefined) throw new Error(`README.md has no ${index + 1}. \`\`\`ts example`);
  const runnable = example.replace(/from '@openwork\/([a-z-]+)'/g, (_, name: string) =>
    `from ${JSON.stringify(pathToFileURL(join(packagesDirectory, name, 'src', 'index.ts')).href)}`,
  );
  const file = join(packageDirectory, `.readme-example-${randomUUID()}.ts`);
  const printed: string[] = [];
  const log = console.log;
  console.log = (...parts: unknown[]) => {
    printed.push(parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' '));
  };
  try {
    await writeFile(file, `${runnable}\nexport {};\n`);
    await import(/* @vite-ignore */ pathToFileURL(file).href);
  } finally {
    console.log = log;
    await rm(file, { force: true });
  }
  return printed;
}

describe('README', () => {
  it('the example runs against the mock model and prints what it claims', async () => {
    expect(await runReadmeExample()).toEqual([
      'read: succeeded, 0 artifact(s)',
      'edit: succeeded, 1 artifact(s)',
      'greeting.txt now greets OpenWork.',
      '"hello\\nOpenWork\\n"',
      'true',
    ]);
  });

  it('the approvals example answers two approval requests of one step and shows where the results are', async () => {
    expect(await runReadmeExample(1)).toEqual([
      '2 approval requests',
      'call_a: text',
      'call_b: execution-denied',
      'Wrote a.txt; b.txt was not approved.',
      '"a.txt\\n"',
      'b.txt not written',
    ]);
  });

  it('names the two lines a user changes for a real provider', async () => {
    const readme = await readFile(join(packageDirectory, 'README.md'), 'utf8');
    const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(example.split('\n').filter((line) => line.includes('// a real provider:'))).toEqual([
      "import { MockLanguageModelV3 } from 'ai/test'; // a real provider: import { openai } from '@ai-sdk/openai';",
      "const model = new MockLanguageModelV3({ // a real provider: const model = openai('gpt-5');",
    ]);
  });
});
