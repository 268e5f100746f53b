import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkAccess,
  createSandboxPolicy,
  deriveSandboxLayout,
  parseSandboxPermissions,
  resolveCheckedPath,
  sandboxPermissionsInputSchema,
  validateGrants,
  withGrants,
  type PathGrant,
  type SandboxMode,
} from '../index.js';

let root: string;
let ws: string;
let home: string;
let skills: string;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ow-grants-')));
  ws = path.join(root, 'ws');
  home = path.join(root, 'home');
  skills = path.join(root, 'skills');
  for (const dir of [ws, path.join(home, '.ssh'), skills, path.join(root, 'outside')]) await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(home, '.ssh/config'), 'Host *\n');
  await fs.writeFile(path.join(home, '.ssh/id_rsa'), 'key\n');
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const modes: SandboxMode[] = ['read-only', 'workspace-write', 'full-access'];

function policy(mode: SandboxMode, grants: readonly PathGrant[] = []) {
  return createSandboxPolicy({ mode, workspaceRoots: [ws], homeDirectory: home, tempRoots: [], skillRoots: [skills], grants });
}

describe('grants (architecture §3.3)', () => {
  it('acc_10 an escalation widens only this call and never hard-protected paths', async () => {
    const session = policy('workspace-write');
    const target = path.join(root, 'outside/report.txt');
    const denied = await resolveCheckedPath(session, target, { cwd: ws, intent: 'may-create', access: 'write', tool: 'write' });
    expect(denied).toMatchObject({ status: 'denied', decision: { sandboxDenied: true } });
    if (denied.status !== 'denied' || denied.decision.suggestedGrant === undefined) throw new Error('expected a suggested grant');
    // The model retries with exactly the suggested grant; core approves and stamps it for this call.
    const validation = await validateGrants(
      { sandboxPermissions: { paths: [denied.decision.suggestedGrant] }, justification: 'write the report the user asked for' },
      { cwd: ws },
    );
    expect(validation.ok).toBe(true);
    if (!validation.ok) return;
    const thisCall = withGrants(session, validation.grants);
    expect((await resolveCheckedPath(thisCall, target, { cwd: ws, intent: 'may-create', access: 'write' })).status).toBe('allowed');
    // The next call uses the session policy again.
    expect((await resolveCheckedPath(session, target, { cwd: ws, intent: 'may-create', access: 'write' })).status).toBe('denied');
    // Hard-protected paths stay protected whatever is granted.
    const everything = withGrants(session, [
      { path: '/', access: 'write', scope: 'subtree' },
      { path: path.join(home, '.openwork'), access: 'write', scope: 'subtree' },
      { path: path.join(ws, '.openwork/state.json'), access: 'write', scope: 'exact' },
      { path: skills, access: 'write', scope: 'subtree' },
    ]);
    for (const protectedPath of [path.join(home, '.openwork/spill/a.txt'), path.join(ws, '.openwork/state.json'), path.join(skills, 's/SKILL.md')]) {
      const result = await resolveCheckedPath(everything, protectedPath, { cwd: ws, intent: 'may-create', access: 'write', tool: 'write' });
      expect(result).toMatchObject({ status: 'denied', decision: { tier: 'hard-protected', sandboxDenied: false } });
    }
  });

  it('grants_unlock_what_they_name_but_never_hard_protected_paths', () => {
    for (const mode of modes) {
      const hooks = path.join(ws, '.git/hooks/pre-commit');
      const sshConfig = path.join(home, '.ssh/config');
      const bashrc = path.join(home, '.bashrc');
      const granted = policy(mode, [
        { path: hooks, access: 'write', scope: 'exact' },
        { path: sshConfig, access: 'read', scope: 'exact' },
        { path: bashrc, access: 'write', scope: 'exact' },
        { path: path.join(home, '.openwork/spill'), access: 'write', scope: 'subtree' },
        { path: path.join(skills, 'x'), access: 'write', scope: 'subtree' },
      ]);
      for (const actor of ['file-tool', 'process'] as const) {
        expect(checkAccess(granted, hooks, 'write', actor).allowed, `${mode} ${actor}`).toBe(true);
        expect(checkAccess(granted, path.join(ws, '.git/hooks/pre-push'), 'write', actor).allowed).toBe(false);
        expect(checkAccess(granted, sshConfig, 'read', actor).allowed).toBe(true);
        expect(checkAccess(granted, sshConfig, 'write', actor).allowed).toBe(false);
        expect(checkAccess(granted, path.join(home, '.ssh/id_rsa'), 'read', actor).allowed).toBe(false);
        expect(checkAccess(granted, bashrc, 'write', actor).allowed).toBe(true);
        expect(checkAccess(granted, path.join(home, '.openwork/spill/s/x.txt'), 'write', actor).allowed).toBe(false);
        expect(checkAccess(granted, path.join(skills, 'x/SKILL.md'), 'write', actor).allowed).toBe(false);
      }
    }
  });

  it('a grant on an ancestor does not unlock credential or sensitive entries below it', () => {
    const granted = policy('workspace-write', [
      { path: home, access: 'write', scope: 'subtree' },
      { path: home, access: 'read', scope: 'subtree' },
    ]);
    expect(checkAccess(granted, path.join(home, 'notes.txt'), 'write', 'process').allowed).toBe(true);
    expect(checkAccess(granted, path.join(home, '.ssh/id_rsa'), 'read', 'process').allowed).toBe(false);
    expect(checkAccess(granted, path.join(home, '.bashrc'), 'write', 'process').allowed).toBe(false);
  });

  it('a write grant on a credential path also makes it readable; a subtree grant reopens the subtree', () => {
    const granted = policy('read-only', [{ path: path.join(home, '.ssh'), access: 'write', scope: 'subtree' }]);
    expect(checkAccess(granted, path.join(home, '.ssh/known_hosts'), 'write', 'file-tool').allowed).toBe(true);
    expect(checkAccess(granted, path.join(home, '.ssh/id_rsa'), 'read', 'file-tool').allowed).toBe(true);
    expect(deriveSandboxLayout(granted).readableGrants).toEqual([{ path: path.join(home, '.ssh'), scope: 'subtree' }]);
  });

  it('exact grants name one path only', () => {
    const granted = policy('read-only', [{ path: path.join(root, 'outside'), access: 'write', scope: 'exact' }]);
    expect(checkAccess(granted, path.join(root, 'outside'), 'write', 'file-tool').allowed).toBe(true);
    expect(checkAccess(granted, path.join(root, 'outside/x'), 'write', 'file-tool').allowed).toBe(false);
  });
});

describe('parseSandboxPermissions / validateGrants (spec §7.5)', () => {
  const one = { path: 'out.txt', access: 'write', scope: 'exact' };

  it('accepts 1 to 16 paths with a non-empty justification', () => {
    expect(parseSandboxPermissions({ sandboxPermissions: { paths: [one] }, justification: 'because' })).toMatchObject({ ok: true });
    expect(parseSandboxPermissions({ sandboxPermissions: { paths: Array.from({ length: 16 }, () => one) }, justification: 'x' }).ok).toBe(true);
    expect(parseSandboxPermissions({ sandboxPermissions: { paths: [] }, justification: 'x' }).ok).toBe(false);
    expect(parseSandboxPermissions({ sandboxPermissions: { paths: Array.from({ length: 17 }, () => one) }, justification: 'x' }).ok).toBe(false);
  });

  it('rejects unknown fields at every level, bad enums, and an empty or missing justification', () => {
    const cases: unknown[] = [
      { paths: [one], extra: true },
      { paths: [{ ...one, recursive: true }] },
      { paths: [{ ...one, access: 'execute' }] },
      { paths: [{ ...one, scope: 'deep' }] },
      { paths: [{ access: 'read', scope: 'exact' }] },
      { paths: [{ ...one, path: '' }] },
    ];
    for (const sandboxPermissions of cases) {
      const result = parseSandboxPermissions({ sandboxPermissions, justification: 'x' });
      expect(result.ok, JSON.stringify(sandboxPermissions)).toBe(false);
      if (!result.ok) expect(result.message).toMatch(/^invalid sandboxPermissions: /);
    }
    expect(parseSandboxPermissions({ sandboxPermissions: { paths: [one] }, justification: '   ' })).toMatchObject({ ok: false, message: expect.stringContaining('justification') });
    expect(parseSandboxPermissions({ sandboxPermissions: { paths: [one] } }).ok).toBe(false);
    expect(sandboxPermissionsInputSchema.safeParse({ paths: [one] }).success).toBe(true);
  });

  it('canonicalises every grant path like any other path and refuses NUL bytes and dangling links', async () => {
    await fs.symlink(path.join(root, 'outside'), path.join(ws, 'out-link'));
    await fs.symlink(path.join(root, 'missing'), path.join(ws, 'dangling'));
    const validated = await validateGrants(
      { sandboxPermissions: { paths: [{ path: 'out-link/./new/../x.txt', access: 'write', scope: 'exact' }] }, justification: 'x' },
      { cwd: ws },
    );
    expect(validated).toEqual({ ok: true, grants: [{ path: path.join(root, 'outside/x.txt'), access: 'write', scope: 'exact' }], justification: 'x' });
    for (const bad of ['a\0b', 'dangling', 'dangling/x']) {
      const result = await validateGrants({ sandboxPermissions: { paths: [{ path: bad, access: 'read', scope: 'exact' }] }, justification: 'x' }, { cwd: ws });
      expect(result.ok, bad).toBe(false);
    }
  });
});
