import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAccess, createSandboxPolicy, toolSlot, type SandboxMode } from '../index.js';

let root: string;
let ws: string;
let home: string;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ow-denials-')));
  ws = path.join(root, 'ws');
  home = path.join(root, 'home');
  for (const directory of [ws, home]) await fs.mkdir(directory, { recursive: true });
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function policy(mode: SandboxMode) {
  return createSandboxPolicy({ mode, workspaceRoots: [ws], homeDirectory: home, tempRoots: [] });
}

/** The escalatable text of architecture §3.5, spelled out in full. */
function escalation(target: string, why: string, access: 'read' | 'write', tool: string): string {
  return (
    `Permission denied: ${target} is ${why}. To get access, call ${tool} again with sandboxPermissions ` +
    `{"paths":[{"path":"${target}","access":"${access}","scope":"exact"}]} and a one-line justification; the user will be asked.`
  );
}

describe('the reason a denial gives the model (architecture §3.5)', () => {
  it('a credential path says secrets are unreadable without approval, for reads and for writes', () => {
    const key = path.join(home, '.ssh', 'id_ed25519');
    for (const access of ['read', 'write'] as const) {
      expect(checkAccess(policy('full-access'), key, access, 'file-tool', { tool: 'read' })).toStrictEqual({
        allowed: false,
        path: key,
        access,
        tier: 'credential',
        sandboxDenied: true,
        message: escalation(key, 'a credential path (secrets are unreadable without approval)', access, 'read'),
        suggestedGrant: { path: key, access, scope: 'exact' },
      });
    }
  });

  it('a sensitive path says that changing it runs code outside the sandbox later', () => {
    const hook = path.join(ws, '.git', 'hooks', 'pre-commit');
    expect(checkAccess(policy('workspace-write'), hook, 'write', 'process', { tool: 'bash' })).toStrictEqual({
      allowed: false,
      path: hook,
      access: 'write',
      tier: 'sensitive',
      sandboxDenied: true,
      message: escalation(hook, 'a sensitive path (changing it runs code outside the sandbox later)', 'write', 'bash'),
      suggestedGrant: { path: hook, access: 'write', scope: 'exact' },
    });
  });

  it('in read-only mode a write says the mode forbids it, not that the path is outside the roots', () => {
    const file = path.join(ws, 'src', 'main.ts');
    const readOnly = checkAccess(policy('read-only'), file, 'write', 'file-tool', { tool: 'edit' });
    expect(readOnly).toStrictEqual({
      allowed: false,
      path: file,
      access: 'write',
      tier: 'outside',
      sandboxDenied: true,
      message: escalation(file, 'not writable in read-only mode', 'write', 'edit'),
      suggestedGrant: { path: file, access: 'write', scope: 'exact' },
    });
    const elsewhere = path.join(root, 'elsewhere.txt');
    const workspaceWrite = checkAccess(policy('workspace-write'), elsewhere, 'write', 'file-tool', { tool: 'edit' });
    expect(workspaceWrite.allowed === false && workspaceWrite.message).toBe(escalation(elsewhere, 'outside the writable roots of this session', 'write', 'edit'));
  });

  it('without a tool name the text keeps the literal {tool} slot for the caller to fill', () => {
    expect(toolSlot).toBe('{tool}');
    const key = path.join(home, '.aws', 'credentials');
    const decision = checkAccess(policy('workspace-write'), key, 'read', 'file-tool');
    expect(decision.allowed === false && decision.message).toBe(escalation(key, 'a credential path (secrets are unreadable without approval)', 'read', '{tool}'));
  });

  it('reading a tier 1 path that lies inside a credential path can be granted: escalatable, not the final tier 1 text', () => {
    // Skills kept below a directory configured as credential (~/.config here).
    const skills = path.join(home, '.config', 'agent', 'skills');
    const configured = createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home, tempRoots: [], skillRoots: [skills], credentialPaths: ['.config'] });
    const skill = path.join(skills, 'review', 'SKILL.md');
    expect(checkAccess(configured, skill, 'read', 'file-tool', { tool: 'read' })).toStrictEqual({
      allowed: false,
      path: skill,
      access: 'read',
      tier: 'hard-protected',
      sandboxDenied: true,
      message: escalation(skill, 'protected', 'read', 'read'),
      suggestedGrant: { path: skill, access: 'read', scope: 'exact' },
    });
    // Writing it stays final, whatever is granted.
    expect(checkAccess(configured, skill, 'write', 'file-tool')).toStrictEqual({
      allowed: false,
      path: skill,
      access: 'write',
      tier: 'hard-protected',
      sandboxDenied: false,
      message: `Permission denied: ${skill} is protected and cannot be changed by tools.`,
    });
  });

  it('an allowed call carries the tier and nothing else', () => {
    const file = path.join(ws, 'a.txt');
    expect(checkAccess(policy('workspace-write'), file, 'write', 'file-tool')).toStrictEqual({ allowed: true, path: file, access: 'write', tier: 'writable-root' });
    // In read-only mode no root is writable, so the workspace is "outside" like everything else.
    expect(checkAccess(policy('read-only'), file, 'read', 'process')).toStrictEqual({ allowed: true, path: file, access: 'read', tier: 'outside' });
    const outside = path.join(root, 'b.txt');
    expect(checkAccess(policy('read-only'), outside, 'read', 'file-tool')).toStrictEqual({ allowed: true, path: outside, access: 'read', tier: 'outside' });
  });

  it('the same policy object answers the same way every time it is asked', () => {
    const shared = policy('workspace-write');
    const hook = path.join(ws, '.git', 'config');
    const first = checkAccess(shared, hook, 'write', 'process');
    for (let round = 0; round < 3; round += 1) expect(checkAccess(shared, hook, 'write', 'process')).toStrictEqual(first);
    expect(checkAccess(shared, path.join(ws, 'ok.txt'), 'write', 'process').allowed).toBe(true);
  });
});
