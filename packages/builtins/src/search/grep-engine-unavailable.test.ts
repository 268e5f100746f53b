import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';

// grep's engine is the re2 native addon, built for one Node ABI. When it does not load, grep says
// so — not "The pattern /TODO/ is not valid: The module … was compiled against a different
// Node.js version" (docs/decisions/0093-cli-small-things-a-person-meets.md). The addon's load is
// made to fail the way an ABI mismatch does, through Node's own module loader.

type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
const loader = createRequire(import.meta.url)('node:module') as { _load: Load };
const realLoad = loader._load;

let fixture: BuiltinsFixture;
beforeEach(async () => {
  loader._load = function load(request, parent, isMain) {
    if (request === 're2') {
      throw new Error(
        "The module '/x/node_modules/re2/build/Release/re2.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 127. This version of Node.js requires NODE_MODULE_VERSION 137.",
      );
    }
    return realLoad.call(this, request, parent, isMain);
  };
  fixture = await createFixture();
});
afterEach(async () => {
  loader._load = realLoad;
  await fixture.cleanup();
});

describe('grep when its engine does not load', () => {
  it('says the engine does not load on this Node and what to do, not that the pattern is invalid', async () => {
    await writeFile(join(fixture.workspace, 'notes.txt'), 'TODO one\n');
    const result = await fixture.call('grep', { pattern: 'TODO' });
    const text = ToolResult.text(result);
    expect(result.error?.code).toBe('execution_failed');
    expect(text).toContain(`grep cannot search here: its regular-expression engine, the re2 native addon, does not load on this Node ${process.version}`);
    expect(text).toContain('compiled against a different Node.js version');
    expect(text).toContain('This is not a problem of the pattern');
    expect(text).not.toContain('is not valid');
  });
});
