import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sandbox from '../index.js';
import { ResolvedPath, createSandboxPolicy, resolveCheckedPath, resolveCheckedPathSync } from '../index.js';

let root: string;
let ws: string;
let home: string;
let outside: string;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ow-resolve-')));
  ws = path.join(root, 'ws');
  home = path.join(root, 'home');
  outside = path.join(root, 'outside');
  for (const dir of [path.join(ws, '.git'), path.join(home, '.ssh'), outside]) await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(home, '.ssh/id_ed25519'), 'key');
  await fs.writeFile(path.join(outside, 'data.txt'), 'data');
  await fs.writeFile(path.join(ws, '.git/config'), '[core]');
  await fs.symlink(outside, path.join(ws, 'out'));
  await fs.symlink(path.join(outside, 'data.txt'), path.join(ws, 'data-link'));
  await fs.symlink(path.join(home, '.ssh'), path.join(ws, 'keys'));
  await fs.symlink(path.join(ws, '.git/config'), path.join(ws, 'git-config-alias'));
  await fs.symlink(path.join(outside, 'gone'), path.join(ws, 'dangling'));
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const policy = () => createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home, tempRoots: [] });

describe('path safety (spec §10)', () => {
  it('acc_07 write through a symlink out of the writable set is denied, read through one into a credential dir is denied, other reads are allowed', async () => {
    const write = (input: string) => resolveCheckedPath(policy(), input, { cwd: ws, intent: 'may-create', access: 'write', tool: 'write' });
    const read = (input: string) => resolveCheckedPath(policy(), input, { cwd: ws, intent: 'must-exist', access: 'read', tool: 'read' });
    expect(await write('out/new.txt')).toMatchObject({ status: 'denied', decision: { path: path.join(outside, 'new.txt'), sandboxDenied: true } });
    expect(await write('data-link')).toMatchObject({ status: 'denied', decision: { path: path.join(outside, 'data.txt') } });
    // Protected metadata through an alias is still protected.
    expect(await write('git-config-alias')).toMatchObject({ status: 'denied', decision: { path: path.join(ws, '.git/config'), tier: 'sensitive' } });
    expect(await read('keys/id_ed25519')).toMatchObject({ status: 'denied', decision: { tier: 'credential', path: path.join(home, '.ssh/id_ed25519') } });
    expect(await read('keys')).toMatchObject({ status: 'denied', decision: { tier: 'credential' } });
    expect(await read('data-link')).toMatchObject({ status: 'allowed', resolved: { path: path.join(outside, 'data.txt') } });
    expect(await read(path.join(outside, 'data.txt'))).toMatchObject({ status: 'allowed' });
    expect(await read(home)).toMatchObject({ status: 'allowed' });
  });

  it('acc_08 a new file whose parent is outside is denied; a dangling symlink on the way is denied', async () => {
    const write = (input: string) => resolveCheckedPath(policy(), input, { cwd: ws, intent: 'may-create', access: 'write', tool: 'write' });
    expect(await write(path.join(outside, 'sub/new.txt'))).toMatchObject({ status: 'denied', decision: { tier: 'outside' } });
    expect(await write('out/sub/new.txt')).toMatchObject({ status: 'denied' });
    expect(await write('dangling')).toMatchObject({ status: 'unresolvable', problem: 'dangling-symlink' });
    expect(await write('dangling/sub/new.txt')).toMatchObject({ status: 'unresolvable', problem: 'dangling-symlink' });
    expect(await write('fresh/sub/new.txt')).toMatchObject({ status: 'allowed', resolved: { path: path.join(ws, 'fresh/sub/new.txt') } });
  });

  it('acc_09 resolveCheckedPath is the only producer of checked paths in this package', async () => {
    const allowed = await resolveCheckedPath(policy(), 'src/a.ts', { cwd: ws, intent: 'may-create', access: 'write' });
    expect(allowed.status).toBe('allowed');
    if (allowed.status !== 'allowed') return;
    expect(ResolvedPath.isInstance(allowed.resolved)).toBe(true);
    expect(Object.isFrozen(allowed.resolved)).toBe(true);
    expect(ResolvedPath.isInstance(resolveCheckedPathSync(policy(), 'src/a.ts', { cwd: ws, intent: 'may-create', access: 'write' }))).toBe(false);
    // A look-alike with the same fields is not a checked path.
    const forged = { ...allowed.resolved };
    expect(forged.path).toBe(allowed.resolved.path);
    expect(ResolvedPath.isInstance(forged)).toBe(false);
    expect(ResolvedPath.isInstance(Object.create(ResolvedPath.prototype))).toBe(false);
    // The constructor refuses callers without the module's private token.
    const Constructor = ResolvedPath as unknown as new (...args: unknown[]) => unknown;
    expect(() => new Constructor(Symbol('ResolvedPath'), '/x', 'write', 'file-tool', 'outside')).toThrow(TypeError);
    // checkAccess answers a decision, never a checked path; no other export creates one.
    expect(ResolvedPath.isInstance(sandbox.checkAccess(policy(), path.join(ws, 'x'), 'write', 'file-tool'))).toBe(false);
    const producers = Object.entries(sandbox).filter(([, value]) => typeof value === 'function' && value.name.toLowerCase().includes('resolvecheckedpath'));
    expect(producers.map(([name]) => name).sort()).toEqual(['resolveCheckedPath', 'resolveCheckedPathSync']);
  });

  it('denied and unresolvable results carry model-facing text', async () => {
    const denied = await resolveCheckedPath(policy(), 'keys/id_ed25519', { cwd: ws, intent: 'must-exist', access: 'read', tool: 'read' });
    if (denied.status !== 'denied') throw new Error('expected denied');
    expect(denied.decision.message).toContain('call read again with sandboxPermissions');
    const missing = await resolveCheckedPath(policy(), 'nope.txt', { cwd: ws, intent: 'must-exist', access: 'read' });
    expect(missing).toMatchObject({ status: 'unresolvable', problem: 'not-found' });
  });
});
