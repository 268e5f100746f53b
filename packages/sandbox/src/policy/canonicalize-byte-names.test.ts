import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalizePath, canonicalizePathSync, createSandboxPolicy, resolveCheckedPath } from '../index.js';
import { pathFromBytes, toNodePath } from './path-bytes.js';

// A path string's U+DC80–U+DCFF stand for bytes that are not UTF-8 (`path-bytes.ts`,
// docs/decisions/0003-exact-file-names-and-the-xnn-spelling.md).
// Canonicalisation must reach those bytes and give real paths back in that form, never U+FFFD,
// so that what the fence checks is exactly what the tools then open.

let root: string;
let ws: string;
let home: string;
const bytes = (folder: string, ...parts: (string | number)[]) =>
  Buffer.concat([Buffer.from(`${folder}/`), ...parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.of(part)))]);
const name = (...parts: (string | number)[]) => pathFromBytes(bytes('', ...parts).subarray(1));

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ow-byte-names-')));
  ws = path.join(root, 'ws');
  home = path.join(root, 'home');
  fs.mkdirSync(ws);
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.mkdirSync(bytes(ws, 'd', 0xe9));
  fs.writeFileSync(bytes(ws, 'd', 0xe9, '/f', 0xff), 'x');
  fs.writeFileSync(bytes(home, '.ssh/k', 0xe9), 'key');
  fs.symlinkSync(bytes(ws, 'd', 0xe9), path.join(ws, 'link'));
  fs.symlinkSync(path.join(home, '.ssh'), bytes(ws, 'out', 0xe9));
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('canonicalizePath on names that are not valid UTF-8', () => {
  it('path-bytes: bytes → path string → bytes is exact for names with and without such bytes', () => {
    for (const name of [bytes('', 'caf', 0xe9).subarray(1), bytes('', 0xe2, 0x82, 'a', 0xc0, 0x80, 0xed, 0xb3, 0xa9, 0xf5).subarray(1), Buffer.from('plain é \uFFFD \u{10080}')]) {
      const path = pathFromBytes(name);
      expect(Buffer.from(toNodePath(path)).equals(name)).toBe(true);
    }
    expect(pathFromBytes(Buffer.of(0x61, 0xe9))).toBe('a\uDCE9');
    expect(toNodePath('plain')).toBe('plain');
  });

  it('resolves such a path to itself, and a link to such a folder to its bytes (not U+FFFD)', async () => {
    const file = `${ws}/${name('d', 0xe9)}/${name('f', 0xff)}`;
    expect(await canonicalizePath(file, { cwd: ws, intent: 'must-exist' })).toEqual({ ok: true, path: file });
    expect(canonicalizePathSync(file, { cwd: ws, intent: 'must-exist' })).toEqual({ ok: true, path: file });
    expect(await canonicalizePath('link/new.txt', { cwd: ws, intent: 'may-create' })).toEqual({ ok: true, path: `${ws}/${name('d', 0xe9)}/new.txt` });
    expect(canonicalizePathSync('link', { cwd: ws, intent: 'must-exist' })).toEqual({ ok: true, path: `${ws}/${name('d', 0xe9)}` });
  });

  it('the fence checks the real bytes: a link out of the workspace with such a name, a credential folder', async () => {
    const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [ws], homeDirectory: home, tempRoots: [] });
    const through = await resolveCheckedPath(policy, `${name('out', 0xe9)}/${name('k', 0xe9)}`, { cwd: ws, intent: 'must-exist', access: 'read', tool: 'read' });
    expect(through.status).toBe('denied');
    const inside = await resolveCheckedPath(policy, `${name('d', 0xe9)}/${name('f', 0xff)}`, { cwd: ws, intent: 'must-exist', access: 'write', tool: 'write' });
    expect(inside.status).toBe('allowed');
  });
});
