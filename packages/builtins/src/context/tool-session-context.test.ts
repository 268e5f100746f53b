import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckedPath } from './checked-path.js';
import { expandHome } from './expand-home.js';
import { localEnvironment } from './local-environment.js';
import { ToolSessionContext } from './tool-session-context.js';
import { createFixture } from '../test-support/builtins-fixture.js';
import { interceptingFileSystem } from '../test-support/intercepting-file-system.js';
import { BuiltinsError } from './builtins-error.js';

describe('ToolSessionContext (§4, §6.2)', () => {
  it('resolvePath gives a CheckedPath that nothing else can construct', async () => {
    const fixture = await createFixture();
    try {
      await writeFile(join(fixture.workspace, 'a.txt'), 'a');
      const checked = await fixture.session.resolvePath('./src/../a.txt', 'read', 'must-exist', fixture.policy(), 'read');
      expect(checked.ok).toBe(true);
      if (!checked.ok) return;
      expect(checked.path).toBeInstanceOf(CheckedPath);
      expect(CheckedPath.isInstance(checked.path)).toBe(true);
      expect({ ...checked.path }).toEqual({
        path: join(fixture.workspace, 'a.txt'),
        input: './src/../a.txt',
        displayPath: 'a.txt',
        access: 'read',
        intent: 'must-exist',
        tier: 'writable-root',
      });
      expect(Object.isFrozen(checked.path)).toBe(true);
      // A look-alike with the same fields is not a CheckedPath, and the constructor refuses callers.
      expect(CheckedPath.isInstance({ ...checked.path })).toBe(false);
      expect(CheckedPath.isInstance(Object.create(CheckedPath.prototype))).toBe(false);
      const Construct = CheckedPath as unknown as new (token: symbol, parts: object) => CheckedPath;
      expect(() => new Construct(Symbol('CheckedPath'), { path: '/etc/passwd' })).toThrow(TypeError);
    } finally {
      await fixture.cleanup();
    }
  });

  it('relative paths resolve against the working directory, never the process cwd', async () => {
    const fixture = await createFixture();
    try {
      await mkdir(join(fixture.workspace, 'sub'));
      await writeFile(join(fixture.workspace, 'sub', 'here.txt'), 'here\n');
      const session = new ToolSessionContext({ ...fixture.session, workingDirectory: join(fixture.workspace, 'sub'), workspaceRoots: [fixture.workspace] });
      const checked = await session.resolvePath('here.txt', 'read', 'must-exist', fixture.policy(), 'read');
      expect(checked.ok && checked.path.path).toBe(join(fixture.workspace, 'sub', 'here.txt'));
      expect(checked.ok && checked.path.displayPath).toBe('sub/here.txt');
      expect(process.cwd()).not.toBe(join(fixture.workspace, 'sub'));
    } finally {
      await fixture.cleanup();
    }
  });

  it('~ and ~/… mean the home directory; ~user is refused; ./~ is a file named ~', () => {
    expect(expandHome('~', '/home/dev')).toEqual({ ok: true, path: '/home/dev' });
    expect(expandHome('~/', '/home/dev')).toEqual({ ok: true, path: '/home/dev' });
    expect(expandHome('~/.openwork/spill/s/c.txt', '/home/dev')).toEqual({ ok: true, path: '/home/dev/.openwork/spill/s/c.txt' });
    expect(expandHome('./~', '/home/dev')).toEqual({ ok: true, path: './~' });
    expect(expandHome('a/~/b', '/home/dev')).toEqual({ ok: true, path: 'a/~/b' });
    const other = expandHome('~alice/notes', '/home/dev');
    expect(other.ok).toBe(false);
    expect(!other.ok && other.message).toContain("~alice (another user's home directory) is not supported");
  });

  it('local takes only PATH, HOME, SHELL, LANG, LC_ALL and TMPDIR from the process environment', async () => {
    const source = { PATH: '/bin', HOME: '/home/dev', SHELL: '/bin/zsh', LANG: 'C.UTF-8', LC_ALL: 'C', TMPDIR: '/tmp', AWS_SECRET_ACCESS_KEY: 'nope', NODE_OPTIONS: '--inspect', OPENWORK_HOME: '/data/ow' };
    expect(localEnvironment(source)).toEqual({ PATH: '/bin', HOME: '/home/dev', SHELL: '/bin/zsh', LANG: 'C.UTF-8', LC_ALL: 'C', TMPDIR: '/tmp' });
    const fixture = await createFixture();
    try {
      const session = ToolSessionContext.local({
        workingDirectory: fixture.workspace,
        sessionId: 'sess/../1',
        processEnvironment: { ...source, HOME: fixture.home, OPENWORK_HOME: join(fixture.root, 'ow-home') },
      });
      expect(session.environment).toEqual({ PATH: '/bin', HOME: fixture.home, SHELL: '/bin/zsh', LANG: 'C.UTF-8', LC_ALL: 'C', TMPDIR: '/tmp' });
      expect(session.homeDirectory).toBe(fixture.home);
      // The OpenWork home is configurable; outside the home directory it is shown absolute.
      expect(session.openworkHome).toBe(join(fixture.root, 'ow-home'));
      expect(session.spill?.location('call:7')).toEqual({
        path: join(fixture.root, 'ow-home', 'spill', 'sess____1', 'call_7.txt'),
        displayPath: join(fixture.root, 'ow-home', 'spill', 'sess____1', 'call_7.txt'),
      });
      const defaults = ToolSessionContext.local({ workingDirectory: fixture.workspace, sessionId: 's1', processEnvironment: { HOME: fixture.home } });
      expect(defaults.openworkHome).toBe(join(fixture.home, '.openwork'));
      expect(defaults.spill?.location('c1').displayPath).toBe('~/.openwork/spill/s1/c1.txt');
      expect(() => ToolSessionContext.local({ workingDirectory: fixture.workspace, processEnvironment: {} })).toThrow(BuiltinsError);
      expect(() => ToolSessionContext.local({ workingDirectory: 'relative', processEnvironment: { HOME: fixture.home } })).toThrow(/must be an absolute path/);
    } finally {
      await fixture.cleanup();
    }
  });

  it('walkedPath keeps credential entries of a walked tree unreadable', async () => {
    const fixture = await createFixture();
    try {
      await mkdir(join(fixture.home, '.aws'));
      const home = await fixture.session.resolvePath('~', 'read', 'must-exist', fixture.policy(), 'grep');
      expect(home.ok).toBe(true);
      if (!home.ok) return;
      expect(fixture.session.walkedPath(home.path, '.aws', fixture.policy())).toBeUndefined();
      expect(fixture.session.walkedPath(home.path, 'notes', fixture.policy())?.path).toBe(join(fixture.home, 'notes'));
      for (const name of ['..', '.', 'a/b', '']) expect(fixture.session.walkedPath(home.path, name, fixture.policy())).toBeUndefined();
    } finally {
      await fixture.cleanup();
    }
  });

  it('every file-system call of read, write, edit and list uses a canonical checked path', async () => {
    const touched: string[] = [];
    const recording = interceptingFileSystem((_operation, args) => {
      if (typeof args[0] === 'string') touched.push(args[0]);
    });
    const fixture = await createFixture({ filesystem: recording });
    try {
      await mkdir(join(fixture.workspace, 'real'));
      await symlink('real', join(fixture.workspace, 'alias'));
      await writeFile(join(fixture.workspace, 'real', 'f.txt'), 'one\n');
      await fixture.call('read', { path: './alias/../alias/f.txt' });
      await fixture.call('edit', { filePath: 'alias/f.txt', oldString: 'one', newString: 'two' });
      await fixture.call('write', { path: 'alias/new/deep.txt', content: 'x' });
      await fixture.call('list', { path: 'alias' });
      expect(touched.length).toBeGreaterThan(0);
      for (const path of touched) {
        // Absolute, normalised, and through no link: the real path a CheckedPath carries (or its parent).
        expect(path.startsWith(join(fixture.workspace, 'real'))).toBe(true);
        expect(path).not.toMatch(/\/\.\.?(\/|$)|\/\/|alias|~/);
      }
    } finally {
      await fixture.cleanup();
    }
  });
});
