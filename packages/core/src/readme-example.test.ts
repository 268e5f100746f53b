import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runReadmeExample } from '@openwork/tooling/readme-example';
import { describe, expect, it } from 'vitest';

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Runs the README's `ts` block under `heading` (runReadmeExample runs a README's first block). */
async function runSectionExample(heading: string): Promise<string[]> {
  const readme = await readFile(join(packageDirectory, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf(heading));
  const block = /```ts\n[\s\S]*?```/.exec(section)?.[0];
  if (block === undefined) throw new Error(`README.md has no ts example under ${heading}`);
  const directory = await mkdtemp(join(tmpdir(), 'ow-readme-section-'));
  try {
    await writeFile(join(directory, 'README.md'), block);
    return await runReadmeExample(directory);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

describe('README', () => {
  it('the sub-agents example runs and prints what it claims', async () => {
    expect(await runSectionExample('## Sub-agents and plans')).toEqual([
      'update_plan agent_send agent_await agent_list',
      'plan: in_progress find the config',
      'agent_finished: finished The config is read in src/config.ts.',
      '1 The explorer says: src/config.ts.',
    ]);
  });

  it('the example runs against the public entry point and prints what it claims', async () => {
    const printed = await runReadmeExample(packageDirectory);
    expect(printed[0]).toMatch(/^read write edit( grep)?( glob)? list( bash( bash_output bash_input bash_kill)?)? conversation_history update_plan$/);
    expect(printed.slice(1)).toEqual([
      'read: succeeded',
      'edit: succeeded',
      'completed - greeting.txt now greets OpenWork.',
      '--- a/greeting.txt\n+++ b/greeting.txt\n@@ -1,2 +1,2 @@\n hello\n-world\n+OpenWork\n',
      'denied',
      'ready',
      'list: succeeded',
      'greeting.txt',
      'true "hello\\nworld\\n"',
    ]);
  });
});
