import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalizePath, canonicalizePathSync, checkAccess, createSandboxPolicy, normalizePathText, resolveCheckedPath } from '../index.js';

let root: string;
let ws: string;
let outside: string;
let home: string;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ow-canonical-')));
  ws = path.join(root, 'ws');
  outside = path.join(root, 'outside');
  home = path.join(root, 'home');
  await fs.mkdir(path.join(ws, 'src'), { recursive: true });
  await fs.mkdir(path.join(outside, 'dir'), { recursive: true });
  await fs.mkdir(path.join(home, '.ssh'), { recursive: true });
  await fs.writeFile(path.join(ws, 'src/a.ts'), 'a');
  await fs.writeFile(path.join(outside, 'secret.txt'), 'outside');
  await fs.writeFile(path.join(home, '.ssh/id_rsa'), 'key');
  await fs.mkdir(path.join(root, 'ws2'));
  await fs.mkdir(path.join(root, 'ws_backup'));
  await fs.symlink(path.join(outside, 'secret.txt'), path.join(ws, 'file-link'));
  await fs.symlink(outside, path.join(ws, 'dir-link'));
  await fs.symlink(path.join(outside, 'nowhere.txt'), path.join(ws, 'dangling'));
  await fs.symlink(path.join(outside, 'nowhere-dir'), path.join(ws, 'dangling-dir'));
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function policy(mode: 'read-only' | 'workspace-write' | 'full-access' = 'workspace-write', workspaceRoots = [ws]) {
  return createSandboxPolicy({ mode, workspaceRoots, homeDirectory: home, tempRoots: [] });
}

async function resolveWrite(input: string, cwd = ws) {
  return resolveCheckedPath(policy(), input, { cwd, intent: 'may-create', access: 'write', tool: 'write' });
}

describe('canonicalizePath (spec §6.2)', () => {
  it('makes relative paths absolute against the given cwd and removes . and .. textually', async () => {
    expect(await canonicalizePath('src/./a.ts', { cwd: ws, intent: 'must-exist' })).toEqual({ ok: true, path: path.join(ws, 'src/a.ts') });
    expect(normalizePathText('../x/./y/..//z', '/a/b')).toBe('/a/x/z');
    expect(normalizePathText('/../../..', '/a')).toBe('/');
  });

  it('must-exist reports a missing target with an actionable message', async () => {
    const result = await canonicalizePath('src/missing.ts', { cwd: ws, intent: 'must-exist' });
    expect(result).toMatchObject({ ok: false, problem: 'not-found' });
    if (!result.ok) expect(result.message).toContain('does not exist');
  });

  it('may-create realpaths the deepest existing ancestor and re-appends the rest', async () => {
    expect(await canonicalizePath('dir-link/new/deeper/file.txt', { cwd: ws, intent: 'may-create' })).toEqual({
      ok: true,
      path: path.join(outside, 'new/deeper/file.txt'),
    });
  });

  it('a path below a file is not a directory', async () => {
    expect(await canonicalizePath('src/a.ts/x', { cwd: ws, intent: 'may-create' })).toMatchObject({ ok: false, problem: 'not-a-directory' });
  });

  it('a relative cwd is a programmer error', async () => {
    await expect(canonicalizePath('x', { cwd: 'relative', intent: 'may-create' })).rejects.toThrow(/absolute working directory/);
  });

  it('the sync and async variants agree', async () => {
    for (const input of ['src/a.ts', 'dir-link/x', 'dangling', '../ws2', 'nope/../src']) {
      for (const intent of ['must-exist', 'may-create'] as const) {
        expect(canonicalizePathSync(input, { cwd: ws, intent })).toEqual(await canonicalizePath(input, { cwd: ws, intent }));
      }
    }
  });
});

describe('peers.md Paths (each line a test)', () => {
  it('sibling prefix: /ws2 and /ws_backup are not inside /ws', async () => {
    const p = policy();
    expect(checkAccess(p, path.join(root, 'ws2'), 'write', 'file-tool').allowed).toBe(false);
    expect(checkAccess(p, path.join(root, 'ws2/file'), 'write', 'file-tool').allowed).toBe(false);
    expect(checkAccess(p, path.join(root, 'ws_backup/file'), 'write', 'file-tool').allowed).toBe(false);
    expect(checkAccess(p, path.join(ws, 'file'), 'write', 'file-tool').allowed).toBe(true);
    expect((await resolveWrite('../ws2/new.txt')).status).toBe('denied');
  });

  it('.. traversal, absolute and relative, is resolved before the check', async () => {
    expect(await resolveWrite('src/../../outside/x.txt')).toMatchObject({ status: 'denied', decision: { path: path.join(outside, 'x.txt') } });
    expect(await resolveWrite(`${ws}/src/../../outside/x.txt`)).toMatchObject({ status: 'denied' });
    expect(await resolveWrite(`${outside}/../ws/src/new.ts`)).toMatchObject({ status: 'allowed', resolved: { path: path.join(ws, 'src/new.ts') } });
  });

  it('names with dots that are not traversal (..test, a..b, ...) stay inside', async () => {
    for (const name of ['..test', 'a..b', '...', '.hidden', 'x..']) {
      const result = await resolveWrite(name);
      expect(result.status, name).toBe('allowed');
      if (result.status === 'allowed') expect(result.resolved.path).toBe(path.join(ws, name));
    }
  });

  it('file symlink out: writing through it is denied, reading follows it', async () => {
    expect(await resolveWrite('file-link')).toMatchObject({ status: 'denied', decision: { path: path.join(outside, 'secret.txt'), tier: 'outside' } });
    const read = await resolveCheckedPath(policy(), 'file-link', { cwd: ws, intent: 'must-exist', access: 'read' });
    expect(read).toMatchObject({ status: 'allowed', resolved: { path: path.join(outside, 'secret.txt') } });
  });

  it('directory symlink out, then creating ln/new.txt and ln/a/b/new.txt', async () => {
    expect(await resolveWrite('dir-link/new.txt')).toMatchObject({ status: 'denied', decision: { path: path.join(outside, 'new.txt') } });
    expect(await resolveWrite('dir-link/a/b/new.txt')).toMatchObject({ status: 'denied', decision: { path: path.join(outside, 'a/b/new.txt') } });
  });

  it('dangling symlink (a plain write would create the outside target) is refused', async () => {
    const result = await resolveWrite('dangling');
    expect(result).toMatchObject({ status: 'unresolvable', problem: 'dangling-symlink' });
    expect(await resolveWrite('dangling-dir/new.txt')).toMatchObject({ status: 'unresolvable', problem: 'dangling-symlink' });
    await expect(fs.stat(path.join(outside, 'nowhere.txt'))).rejects.toThrow();
  });

  it('a symlink at the write target: the check sees the target; rename in the parent replaces the link, the outside file is untouched', async () => {
    const dir = path.join(ws, 'target-link-case');
    await fs.mkdir(dir);
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(dir, 'out.txt'));
    await fs.writeFile(path.join(ws, 'src/inside.txt'), 'inside');
    await fs.symlink(path.join(ws, 'src/inside.txt'), path.join(dir, 'in.txt'));
    expect(await resolveWrite('target-link-case/out.txt')).toMatchObject({ status: 'denied' });
    expect(await resolveWrite('target-link-case/in.txt')).toMatchObject({ status: 'allowed', resolved: { path: path.join(ws, 'src/inside.txt') } });
    // The parent is checked and writable: a temp file renamed onto the link name replaces the link.
    const parent = await resolveCheckedPath(policy(), 'target-link-case', { cwd: ws, intent: 'must-exist', access: 'write' });
    expect(parent.status).toBe('allowed');
    await fs.writeFile(path.join(dir, '.tmp-1'), 'new content');
    await fs.rename(path.join(dir, '.tmp-1'), path.join(dir, 'out.txt'));
    expect(await fs.readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('outside');
    expect((await fs.lstat(path.join(dir, 'out.txt'))).isSymbolicLink()).toBe(false);
  });

  it('symlink chains out and in', async () => {
    const dir = path.join(ws, 'chains');
    await fs.mkdir(dir);
    await fs.symlink(path.join(dir, 'out-2'), path.join(dir, 'out-1'));
    await fs.symlink(path.join(dir, 'out-3'), path.join(dir, 'out-2'));
    await fs.symlink(outside, path.join(dir, 'out-3'));
    await fs.symlink(path.join(ws, 'src'), path.join(outside, 'back-in'));
    await fs.symlink(path.join(outside, 'back-in'), path.join(dir, 'in-1'));
    expect(await resolveWrite('chains/out-1/x.txt')).toMatchObject({ status: 'denied', decision: { path: path.join(outside, 'x.txt') } });
    expect(await resolveWrite('chains/in-1/x.txt')).toMatchObject({ status: 'allowed', resolved: { path: path.join(ws, 'src/x.txt') } });
    expect(await resolveWrite(`${outside}/back-in/y.txt`)).toMatchObject({ status: 'allowed', resolved: { path: path.join(ws, 'src/y.txt') } });
  });

  it('a file swapped for a symlink between check and use is caught by checking again before use (residual window documented)', async () => {
    const file = path.join(ws, 'swap.txt');
    await fs.writeFile(file, 'mine');
    expect(await resolveWrite('swap.txt')).toMatchObject({ status: 'allowed', resolved: { path: file } });
    await fs.rm(file);
    await fs.symlink(path.join(outside, 'secret.txt'), file);
    // write/edit resolve again after creating parents (§6.2); the second check sees the swap.
    expect(await resolveWrite('swap.txt')).toMatchObject({ status: 'denied', decision: { path: path.join(outside, 'secret.txt') } });
  });

  it('NUL bytes are rejected', async () => {
    expect(await resolveWrite('src/a\0.ts')).toMatchObject({ status: 'unresolvable', problem: 'nul-byte' });
    expect(canonicalizePathSync('/etc\0/passwd', { cwd: '/', intent: 'must-exist' })).toMatchObject({ ok: false, problem: 'nul-byte' });
  });

  it('~ is not expanded: it is a directory literally named ~ under the cwd', async () => {
    expect(await resolveWrite('~/.ssh/id_rsa')).toMatchObject({ status: 'allowed', resolved: { path: path.join(ws, '~/.ssh/id_rsa') } });
    expect(await canonicalizePath('~', { cwd: ws, intent: 'may-create' })).toEqual({ ok: true, path: path.join(ws, '~') });
  });

  it('relative paths resolve against the session working directory, not the process cwd', async () => {
    const before = process.cwd();
    expect(before).not.toBe(path.join(ws, 'src'));
    expect(await canonicalizePath('a.ts', { cwd: path.join(ws, 'src'), intent: 'must-exist' })).toEqual({ ok: true, path: path.join(ws, 'src/a.ts') });
    expect(process.cwd()).toBe(before);
  });

  it('/tmp vs /private/tmp: a root given through an alias and a path given through the other name meet on the real path', async () => {
    const alias = path.join(root, 'alias-of-ws');
    await fs.symlink(ws, alias);
    const aliased = createSandboxPolicy({ workspaceRoots: [alias], homeDirectory: home, tempRoots: [] });
    expect(aliased.workspaceRoots).toEqual([ws]);
    const result = await resolveCheckedPath(aliased, `${alias}/src/new.ts`, { cwd: '/', intent: 'may-create', access: 'write' });
    expect(result).toMatchObject({ status: 'allowed', resolved: { path: path.join(ws, 'src/new.ts') } });
    const realTmp = await fs.realpath('/tmp');
    const defaults = createSandboxPolicy({ workspaceRoots: [], homeDirectory: home });
    expect(defaults.tempRoots).toContain(realTmp);
    expect(defaults.tempRoots).toContain(await fs.realpath(os.tmpdir()));
  });

  it('R/, R//x and R/./x are R and R/x', async () => {
    expect(await canonicalizePath(`${ws}/`, { cwd: '/', intent: 'must-exist' })).toEqual({ ok: true, path: ws });
    expect(await canonicalizePath(`${ws}//src`, { cwd: '/', intent: 'must-exist' })).toEqual({ ok: true, path: path.join(ws, 'src') });
    expect(await canonicalizePath(`${ws}/./src`, { cwd: '/', intent: 'must-exist' })).toEqual({ ok: true, path: path.join(ws, 'src') });
    // R itself holds protected entries (.vscode, .git/hooks …), so it is not writable itself.
    expect(checkAccess(policy(), ws, 'read', 'file-tool')).toMatchObject({ allowed: true, path: ws, tier: 'writable-root' });
  });

  it('never lowercases paths (the policy compares case-sensitively)', async () => {
    expect(await canonicalizePath('CamelCase/New.TXT', { cwd: ws, intent: 'may-create' })).toEqual({ ok: true, path: path.join(ws, 'CamelCase/New.TXT') });
    const upper = createSandboxPolicy({ workspaceRoots: [path.join(root, 'Upper')], homeDirectory: home, tempRoots: [] });
    expect(checkAccess(upper, path.join(root, 'Upper/x'), 'write', 'file-tool').allowed).toBe(true);
    expect(checkAccess(upper, path.join(root, 'upper/x'), 'write', 'file-tool').allowed).toBe(false);
  });

  it('a Windows-looking path on POSIX is an ordinary relative name', async () => {
    expect(await canonicalizePath('C:\\Users\\me\\file.txt', { cwd: ws, intent: 'may-create' })).toEqual({
      ok: true,
      path: `${ws}/C:\\Users\\me\\file.txt`,
    });
    expect(await canonicalizePath('C:/Windows/system32', { cwd: ws, intent: 'may-create' })).toEqual({ ok: true, path: path.join(ws, 'C:/Windows/system32') });
  });

  it('an empty list of roots denies every write', async () => {
    const empty = createSandboxPolicy({ workspaceRoots: [], homeDirectory: home, tempRoots: [] });
    for (const target of [ws, path.join(ws, 'x'), '/', path.join(root, 'anything'), os.tmpdir()]) {
      expect(checkAccess(empty, target, 'write', 'file-tool').allowed, target).toBe(false);
      expect(checkAccess(empty, target, 'write', 'process').allowed, target).toBe(false);
    }
    expect(checkAccess(empty, path.join(ws, 'src/a.ts'), 'read', 'file-tool').allowed).toBe(true);
  });

  it('hardlinks cannot be detected by realpath (documented limit): a hard link inside the workspace to an outside file passes the fence', async () => {
    const link = path.join(ws, 'hard-link.txt');
    try {
      await fs.link(path.join(outside, 'secret.txt'), link);
    } catch (error) {
      // Cross-device temp dirs cannot hold the link at all, which is the safe outcome.
      expect((error as NodeJS.ErrnoException).code).toBe('EXDEV');
      return;
    }
    const result = await resolveWrite('hard-link.txt');
    expect(result).toMatchObject({ status: 'allowed', resolved: { path: link } });
    expect((await fs.stat(link)).nlink).toBe(2);
  });
});
