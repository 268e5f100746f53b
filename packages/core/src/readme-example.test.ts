import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runReadmeExample } from '@openwork/tooling/readme-example';
import { describe, expect, it } from 'vitest';

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('README', () => {
  it('the example runs against the public entry point and prints what it claims', async () => {
    const printed = await runReadmeExample(packageDirectory);
    expect(printed[0]).toMatch(/^read write edit( grep)?( glob)? list( bash( bash_output bash_kill)?)? conversation_history$/);
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
