import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { describe, expect, it } from 'vitest';
import { backgroundFixtures } from './test-support/background-fixtures.js';

const { create: bashFixture } = backgroundFixtures();

describe('bash under staged writes (architecture §3.10)', () => {
  it('a planted hook in a repository below the workspace is not applied: the result says so, with the grant that would allow it, and is sandboxDenied', async () => {
    const fixture = await bashFixture();
    await mkdir(join(fixture.workspace, 'projects', 'app', '.git', 'hooks'), { recursive: true });
    const result = await fixture.call('bash', { command: 'echo "touch pwned" > projects/app/.git/hooks/pre-commit && echo kept > projects/app/notes.txt && echo done' });
    expect(result.status).toBe('succeeded');
    expect(result.sandboxDenied).toBe(true);
    const text = ToolResult.text(result);
    expect(text).toMatch(/^done\n\[exit 0; duration \d+ ms\]\n\[not applied: 1 change the sandbox rules refused/);
    expect(text).toContain(`"path":"${join(fixture.workspace, 'projects', 'app', '.git', 'hooks', 'pre-commit')}","access":"write"`);
    expect(existsSync(join(fixture.workspace, 'projects', 'app', '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(await readFile(join(fixture.workspace, 'projects', 'app', 'notes.txt'), 'utf8')).toBe('kept\n');
  });

  it('a call whose writes are all allowed is not sandboxDenied and says nothing more', async () => {
    const fixture = await bashFixture();
    const result = await fixture.call('bash', { command: 'echo fine > fine.txt' });
    expect(result.sandboxDenied).toBe(false);
    expect(ToolResult.text(result)).toMatch(/^\[exit 0; duration \d+ ms\]$/);
  });
});
