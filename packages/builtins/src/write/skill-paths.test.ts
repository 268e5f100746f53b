import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';

let fixture: BuiltinsFixture;
let inWorkspace: string;
let inHome: string;
beforeEach(async () => {
  fixture = await createFixture({ skillRoots: ['workspace/.agents/skills', 'home/.config/openwork/skills'] });
  inWorkspace = join(fixture.workspace, '.agents', 'skills');
  inHome = join(fixture.home, '.config', 'openwork', 'skills');
  await mkdir(join(inWorkspace, 'deploy'));
  await writeFile(join(inWorkspace, 'deploy', 'SKILL.md'), '# Deploy\n');
});
afterEach(async () => {
  await fixture.cleanup();
});

describe('skill roots (tier 1)', () => {
  it('write_and_edit_are_denied_for_the_agents_skill_root_in_every_mode', async () => {
    const skill = join(inWorkspace, 'deploy', 'SKILL.md');
    // The model may read a skill (a skill is not a tool: it is read with read, §3).
    expect(await fixture.text('read', { path: '.agents/skills/deploy/SKILL.md' })).toBe('1\t# Deploy');
    for (const mode of ['read-only', 'workspace-write', 'full-access'] as const) {
      const grants = [{ path: inWorkspace, access: 'write' as const, scope: 'subtree' as const }];
      const policy = fixture.policy({ mode, grants });
      const edit = await fixture.call('edit', { filePath: '.agents/skills/deploy/SKILL.md', oldString: 'Deploy', newString: 'Pwned' }, { policy });
      const write = await fixture.call('write', { path: join(inHome, 'new', 'SKILL.md'), content: 'x' }, { policy });
      for (const result of [edit, write]) {
        expect(result.status, mode).toBe('denied');
        expect(result.sandboxDenied).toBe(false);
        expect(ToolResult.text(result)).toMatch(/^Permission denied: .* is protected and cannot be changed by tools\.$/);
      }
    }
    expect(ToolResult.text(await fixture.call('read', { path: skill }))).toBe('1\t# Deploy');
    expect(await readdir(inHome)).toEqual([]);
  });

  it('an_alias_cannot_bypass_canonical_skill_root_write_protection', async () => {
    await symlink(inWorkspace, join(fixture.workspace, 'skills-alias'));
    await symlink(join(inWorkspace, 'deploy'), join(fixture.workspace, 'deploy-alias'));
    for (const target of ['skills-alias/deploy/SKILL.md', 'skills-alias/new/SKILL.md', 'deploy-alias/extra.md']) {
      const result = await fixture.call('write', { path: target, content: 'x' });
      expect(result.status, target).toBe('denied');
      expect(ToolResult.text(result)).toMatch(/is protected and cannot be changed by tools\.$/);
      // prepare already tells core, so the call can be denied without running (§6.1).
      const prepared = fixture.toolset.prepare('write', { path: target, content: 'x' });
      expect(prepared.ok && prepared.call.inspection.protectedTarget).toBe(ToolResult.text(result));
    }
    expect(await readdir(inWorkspace)).toEqual(['deploy']);
    expect(await readdir(join(inWorkspace, 'deploy'))).toEqual(['SKILL.md']);
  });
});
