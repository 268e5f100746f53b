import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runReadmeExample } from '@openwork/tooling/readme-example';
import { describe, expect, it } from 'vitest';

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('README', () => {
  it('the example runs against the public entry point and prints what it claims', async () => {
    expect(await runReadmeExample(packageDirectory)).toEqual(['true 4', 'user: What changed yesterday? | assistant: Nothing yet.']);
  });
});
