import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxUnavailableError } from '../backend/sandbox-unavailable-error.js';
import type { SandboxLayout, ScopedPath } from '../policy/sandbox-layout.js';
import { realBubblewrapHost } from './bubblewrap-host.js';
import { renderBubblewrapArguments } from './render-bubblewrap-arguments.js';
import { makeTempDirectory } from './test-support/run-wrapped.js';

let root: string;

beforeAll(async () => {
  root = await makeTempDirectory('ow-bwrap-render-');
  for (const directory of ['ws/.git', 'ws/nested-root', 'ws/.openwork', 'home/.ssh', 'home/.aws', 'fresh', 'real-root']) {
    await fs.mkdir(path.join(root, directory), { recursive: true });
  }
  await fs.writeFile(path.join(root, 'home/.ssh/config'), 'Host *\n');
  await fs.writeFile(path.join(root, 'home/.netrc'), 'machine x\n');
  await fs.writeFile(path.join(root, 'ws/.envrc'), 'export A=1\n');
  await fs.symlink(path.join(root, 'real-root'), path.join(root, 'alias-root'));
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const subtree = (relative: string): ScopedPath => ({ path: path.join(root, relative), scope: 'subtree' });

function layout(parts: Partial<SandboxLayout>): SandboxLayout {
  return { writable: [], readOnly: [], unreadable: [], hardProtected: [], readableGrants: [], writableGrants: [], deviceFiles: [], network: 'allow', letterCase: 'sensitive', ...parts };
}

function render(parts: Partial<SandboxLayout>, cwd = root) {
  // The host's listening sockets (a database on this machine) are masked too: not part of these plans.
  return renderBubblewrapArguments(layout(parts), { argv: ['/bin/bash', '-c', 'true'], cwd }, { ...realBubblewrapHost, listeningSockets: () => [] });
}

/** The mount arguments as `op path` strings, in order (sources of `--bind X X` omitted). */
function mounts(argv: readonly string[]): string[] {
  const result: string[] = [];
  for (let index = 0; index < argv.length && argv[index] !== '--'; index += 1) {
    const option = argv[index] as string;
    if (option === '--bind' || option === '--ro-bind') {
      const source = argv[index + 1] as string;
      const destination = argv[index + 2] as string;
      result.push(`${option} ${source === destination ? '' : `${source} -> `}${destination.replace(root, '~R')}`);
      index += 2;
    } else if (option === '--tmpfs' || option === '--remount-ro' || option === '--dev' || option === '--proc' || option === '--chdir') {
      result.push(`${option} ${(argv[index + 1] as string).replace(root, '~R')}`);
      index += 1;
    }
  }
  return result;
}

describe('renderBubblewrapArguments', () => {
  it('binds writable roots parents first, then protected paths read-only, then masks credentials', () => {
    const rendering = render({
      writable: [subtree('ws/nested-root'), subtree('ws')],
      readOnly: [subtree('ws/.openwork'), subtree('ws/.envrc')],
      unreadable: [subtree('home/.ssh'), subtree('home/.netrc')],
      hardProtected: [subtree('ws/.openwork')],
    });
    expect(mounts(rendering.arguments)).toEqual([
      '--ro-bind /',
      '--dev /dev',
      '--proc /proc',
      '--ro-bind /proc/sys',
      '--bind ~R/ws',
      '--ro-bind ~R/ws/.envrc',
      '--ro-bind ~R/ws/.openwork',
      '--ro-bind /dev/null -> ~R/home/.netrc',
      '--tmpfs ~R/home/.ssh',
      '--remount-ro ~R/home/.ssh',
      '--chdir ~R',
    ]);
    expect(rendering.arguments.slice(0, 5)).toEqual(['--unshare-pid', '--die-with-parent', '--new-session', '--cap-drop', 'ALL']);
    // Mode 0000: reads fail with "Permission denied", which denial detection recognises.
    const tmpfs = rendering.arguments.indexOf('--tmpfs');
    expect(rendering.arguments.slice(tmpfs - 2, tmpfs + 2)).toEqual(['--perms', '0000', '--tmpfs', path.join(root, 'home/.ssh')]);
    expect(rendering.arguments.slice(-4)).toEqual(['--', '/bin/bash', '-c', 'true']);
    expect(rendering.createdMountPoints).toEqual([]);
  });

  it('makes no claim it cannot keep: no network or IPC namespace options', () => {
    const rendering = render({ writable: [subtree('ws')] });
    expect(rendering.arguments.filter((argument) => /net|ipc|uts|--unshare-all|--share/.test(argument))).toEqual([]);
  });

  it('binds / read-write in full-access and still re-protects and masks inside it', () => {
    const rendering = render({
      writable: [{ path: '/', scope: 'subtree' }],
      readOnly: [subtree('ws/.envrc')],
      unreadable: [subtree('home/.ssh')],
    });
    const rendered = mounts(rendering.arguments);
    expect(rendered.slice(0, 4)).toEqual(['--bind /', '--dev /dev', '--proc /proc', '--ro-bind /proc/sys']);
    // Every directory above a protected mount is pinned first (see the pinning test below).
    expect(rendered).toEqual(expect.arrayContaining(['--bind ~R', '--bind ~R/home', '--bind ~R/ws']));
    expect(rendered.indexOf('--bind ~R/ws')).toBeLessThan(rendered.indexOf('--ro-bind ~R/ws/.envrc'));
    expect(rendered.slice(rendered.indexOf('--ro-bind ~R/ws/.envrc'))).toEqual([
      '--ro-bind ~R/ws/.envrc',
      '--tmpfs ~R/home/.ssh',
      '--remount-ro ~R/home/.ssh',
      '--chdir ~R',
    ]);
  });

  it('binds the canonical path of a root that is a symbolic link', () => {
    const rendering = render({ writable: [subtree('alias-root')] });
    expect(mounts(rendering.arguments)).toContain('--bind ~R/real-root');
  });

  it('skips protected paths nothing can write and missing names nothing can create', () => {
    const rendering = render({
      writable: [subtree('ws')],
      readOnly: [subtree('home/.bashrc'), subtree('home/.ssh')],
      unreadable: [subtree('home/.kube')],
    });
    expect(mounts(rendering.arguments)).toEqual(['--ro-bind /', '--dev /dev', '--proc /proc', '--ro-bind /proc/sys', '--bind ~R/ws', '--chdir ~R']);
  });

  it('masks a missing protected name inside a writable root as an empty read-only directory and records the mount points', () => {
    const rendering = render({
      writable: [subtree('ws'), subtree('fresh')],
      readOnly: [subtree('ws/.vscode'), subtree('ws/.git/hooks'), subtree('fresh/.idea/sub')],
    });
    expect(mounts(rendering.arguments)).toContain('--tmpfs ~R/ws/.vscode');
    expect(mounts(rendering.arguments)).toContain('--remount-ro ~R/ws/.vscode');
    expect(mounts(rendering.arguments)).toContain('--remount-ro ~R/ws/.git/hooks');
    expect(rendering.createdMountPoints.map((created) => created.replace(root, '~R')).sort()).toEqual([
      '~R/fresh/.idea',
      '~R/fresh/.idea/sub',
      '~R/ws/.git/hooks',
      '~R/ws/.vscode',
    ]);
  });

  it('below a .git that does not exist, protects hooks as a read-only directory and config as a read-only empty file', () => {
    const rendering = render({
      writable: [subtree('fresh')],
      readOnly: [subtree('fresh/.git/hooks'), subtree('fresh/.git/config')],
    });
    const rendered = mounts(rendering.arguments);
    expect(rendered).toContain('--tmpfs ~R/fresh/.git/hooks');
    expect(rendered).toContain('--remount-ro ~R/fresh/.git/hooks');
    // git reads .git/config before anything else: a directory there would stop every git command.
    expect(rendered).toContain('--ro-bind ~R/fresh/.git/config');
    expect(rendering.fileMountPoints).toEqual([{ path: path.join(root, 'fresh/.git/config'), content: '' }]);
    expect(rendering.createdMountPoints).toEqual([
      path.join(root, 'fresh/.git'),
      path.join(root, 'fresh/.git/config'),
      path.join(root, 'fresh/.git/hooks'),
    ]);
  });

  it('renders write grants on .git/config and .git/hooks below a missing .git by mounting nothing there', () => {
    const config = { path: path.join(root, 'fresh/.git/config'), scope: 'exact' } as const;
    const rendering = render({
      writable: [subtree('fresh'), config, subtree('fresh/.git/hooks')],
      readOnly: [subtree('fresh/.git/hooks'), subtree('fresh/.git/config'), subtree('fresh/.vscode')],
      writableGrants: [config, subtree('fresh/.git/hooks')],
    });
    // Only the ungranted missing name is protected; git init can rename config.lock over config.
    expect(mounts(rendering.arguments).filter((mount) => mount.includes('~R/fresh/'))).toEqual([
      '--tmpfs ~R/fresh/.vscode',
      '--remount-ro ~R/fresh/.vscode',
    ]);
    expect(rendering.fileMountPoints).toEqual([]);
    expect(rendering.createdMountPoints).toEqual([path.join(root, 'fresh/.vscode')]);
  });

  it('puts a grant inside a masked credential directory between --tmpfs and --remount-ro', () => {
    const rendering = render({
      writable: [subtree('ws')],
      unreadable: [subtree('home/.ssh'), subtree('home/.aws')],
      readableGrants: [{ path: path.join(root, 'home/.ssh/config'), scope: 'exact' }, subtree('home/.aws')],
      writableGrants: [subtree('home/.aws')],
    });
    const rendered = mounts(rendering.arguments);
    const tmpfs = rendering.arguments.indexOf('--tmpfs');
    expect(rendering.arguments.slice(tmpfs - 2, tmpfs)).toEqual(['--perms', '0111']);
    expect(rendered.slice(rendered.indexOf('--tmpfs ~R/home/.ssh'))).toEqual([
      '--tmpfs ~R/home/.ssh',
      '--ro-bind ~R/home/.ssh/config',
      '--remount-ro ~R/home/.ssh',
      '--bind ~R/home/.aws',
      '--chdir ~R',
    ]);
    // Reopened as a whole: .aws is not masked at all.
    expect(rendered).not.toContain('--tmpfs ~R/home/.aws');
  });

  it('re-protects tier 1 inside a write grant, after the grant', () => {
    const rendering = render({
      readOnly: [subtree('home/.ssh')],
      unreadable: [],
      hardProtected: [subtree('home/.ssh/config')],
      writableGrants: [subtree('home/.ssh')],
    });
    const rendered = mounts(rendering.arguments);
    expect(rendered.indexOf('--ro-bind ~R/home/.ssh/config')).toBeGreaterThan(rendered.indexOf('--bind ~R/home/.ssh'));
  });

  it('pins every directory between a writable root and a protected mount, creating missing ones, and a blocking .git file', async () => {
    await fs.mkdir(path.join(root, 'pin/repo/.git/hooks'), { recursive: true });
    await fs.mkdir(path.join(root, 'pin/worktree'), { recursive: true });
    await fs.writeFile(path.join(root, 'pin/worktree/.git'), 'gitdir: /elsewhere\n');
    const rendering = render({
      writable: [subtree('pin')],
      readOnly: [subtree('pin/repo/.git/hooks'), subtree('pin/fresh/.git/hooks'), subtree('pin/worktree/.git/hooks'), subtree('pin/.vscode')],
    });
    const rendered = mounts(rendering.arguments);
    // A mount point cannot be renamed (EBUSY): `mv .git .git-old` no longer carries the protection away.
    const pins = ['fresh', 'repo', 'worktree', 'fresh/.git', 'repo/.git', 'worktree/.git'].map((pin) => `--bind ~R/pin/${pin}`);
    expect(rendered.filter((mount) => pins.includes(mount))).toEqual(pins);
    // Parents first: a bind from the host's tree would otherwise cover the mounts below it.
    expect(rendered.indexOf('--bind ~R/pin')).toBeLessThan(rendered.indexOf('--bind ~R/pin/repo'));
    expect(rendered.indexOf('--bind ~R/pin/repo')).toBeLessThan(rendered.indexOf('--bind ~R/pin/repo/.git'));
    expect(rendered.indexOf('--bind ~R/pin/repo/.git')).toBeLessThan(rendered.indexOf('--ro-bind ~R/pin/repo/.git/hooks'));
    // The mount point of the protected entry itself is never pinned writable, nor the writable root again.
    expect(rendered).not.toContain('--bind ~R/pin/.vscode');
    expect(rendered.filter((mount) => mount === '--bind ~R/pin')).toHaveLength(1);
    expect(rendering.directoryMountPoints).toEqual([path.join(root, 'pin/fresh'), path.join(root, 'pin/fresh/.git')]);
    expect(rendering.createdMountPoints).toEqual(expect.arrayContaining([...rendering.directoryMountPoints]));
  });

  it('protects missing git redirections as files git can read: commondir names the git directory itself, config.worktree is empty, worktrees/ an empty folder', () => {
    const rendering = render({
      writable: [subtree('ws')],
      readOnly: ['commondir', 'config.worktree', 'worktrees', 'hooks'].map((name) => subtree(`ws/.git/${name}`)),
    });
    const rendered = mounts(rendering.arguments);
    expect(rendering.fileMountPoints).toEqual([
      { path: path.join(root, 'ws/.git/commondir'), content: '.\n' },
      { path: path.join(root, 'ws/.git/config.worktree'), content: '' },
    ]);
    expect(rendered).toEqual(expect.arrayContaining([
      '--ro-bind ~R/ws/.git/commondir',
      '--ro-bind ~R/ws/.git/config.worktree',
      '--tmpfs ~R/ws/.git/worktrees',
      '--tmpfs ~R/ws/.git/hooks',
    ]));
    // .git itself is pinned, so the redirections cannot be carried away with it.
    expect(rendered.indexOf('--bind ~R/ws/.git')).toBeLessThan(rendered.indexOf('--ro-bind ~R/ws/.git/commondir'));
  });

  it('an exact entry protects the entry only: a file read-only, a real folder pinned, a link by protectLinkedNames', async () => {
    await fs.mkdir(path.join(root, 'exact/ws/real-git'), { recursive: true });
    await fs.writeFile(path.join(root, 'exact/ws/pointer'), 'gitdir: /elsewhere\n');
    await fs.symlink('real-git', path.join(root, 'exact/ws/linked-git'));
    const exact = (relative: string): ScopedPath => ({ path: path.join(root, relative), scope: 'exact' });
    const rendered = mounts(render({
      writable: [subtree('exact')],
      readOnly: [exact('exact/ws/pointer'), exact('exact/ws/real-git'), exact('exact/ws/linked-git')],
      sessionRoots: [path.join(root, 'exact')],
    }).arguments);
    expect(rendered).toContain('--ro-bind ~R/exact/ws/pointer');
    expect(rendered).toContain('--bind ~R/exact/ws/real-git');
    expect(rendered).not.toContain('--ro-bind ~R/exact/ws/real-git');
    // The linked one sits in a folder that is no session root: that folder is sealed.
    expect(rendered).toContain('--ro-bind ~R/exact/ws');
  });

  it('seals a folder that holds a protected symbolic link: read-only, its files and folders re-bound, links and missing names left alone', async () => {
    const home = path.join(root, 'sealed-home');
    await fs.mkdir(path.join(home, 'dotfiles'), { recursive: true });
    await fs.mkdir(path.join(home, 'code'));
    await fs.mkdir(path.join(home, '.openwork'));
    await fs.writeFile(path.join(home, 'dotfiles/bashrc'), '# rc\n');
    await fs.writeFile(path.join(home, 'notes.txt'), 'n\n');
    await fs.symlink('dotfiles/bashrc', path.join(home, '.bashrc'));
    const at = (relative: string) => `~R/sealed-home${relative === '' ? '' : `/${relative}`}`;
    const rendering = render({
      writable: [{ path: '/', scope: 'subtree' }],
      readOnly: [subtree('sealed-home/.bashrc'), subtree('sealed-home/dotfiles/bashrc'), subtree('sealed-home/.zshrc'), subtree('sealed-home/.openwork')],
      hardProtected: [subtree('sealed-home/.openwork')],
      sessionRoots: [path.join(root, 'ws')],
      homeDirectory: home,
    });
    const rendered = mounts(rendering.arguments);
    const seal = rendered.indexOf(`--ro-bind ${at('')}`);
    expect(seal).toBeGreaterThan(rendered.indexOf('--bind ~R')); // its parents are pinned first
    for (const entry of ['code', 'dotfiles', 'notes.txt', '.openwork']) {
      expect(rendered.indexOf(`--bind ${at(entry)}`), entry).toBeGreaterThan(seal);
    }
    // The re-bound entries are protected again where the layout says so, after the re-bind.
    expect(rendered.indexOf(`--ro-bind ${at('.openwork')}`)).toBeGreaterThan(rendered.indexOf(`--bind ${at('.openwork')}`));
    expect(rendered.indexOf(`--ro-bind ${at('dotfiles/bashrc')}`)).toBeGreaterThan(rendered.indexOf(`--bind ${at('dotfiles')}`));
    // The link cannot be a mount point, and a missing name in a sealed folder cannot be created anyway.
    expect(rendered.filter((mount) => mount.includes('.bashrc') || mount.includes('.zshrc'))).toEqual([]);
    expect(rendering.createdMountPoints).toEqual([]);
  });

  it('refuses (SandboxUnavailableError) a protected symbolic link directly in a session root or a git folder, naming them all', async () => {
    await fs.mkdir(path.join(root, 'refuse/ws/.git'), { recursive: true });
    await fs.mkdir(path.join(root, 'refuse/ws/githooks'));
    await fs.symlink('../githooks', path.join(root, 'refuse/ws/.git/hooks'));
    await fs.symlink('/nowhere', path.join(root, 'refuse/ws/.envrc'));
    const attempt = () =>
      render({
        writable: [subtree('refuse/ws')],
        readOnly: [subtree('refuse/ws/.git/hooks'), subtree('refuse/ws/githooks'), subtree('refuse/ws/.envrc'), subtree('/nowhere')],
        sessionRoots: [path.join(root, 'refuse/ws')],
      });
    expect(attempt).toThrow(SandboxUnavailableError);
    expect(attempt).toThrow(/refuse\/ws\/\.git\/hooks is a symbolic link at a protected name in .*refuse\/ws\/\.git, where new files must stay possible/);
    expect(attempt).toThrow(/refuse\/ws\/\.envrc is a dangling symbolic link/);
    // The same links with a grant that reopens the whole root (the fence lets it replace them): nothing to refuse.
    expect(() =>
      render({ writable: [subtree('refuse/ws')], readOnly: [subtree('refuse/ws/.envrc')], writableGrants: [subtree('refuse/ws/.envrc')], sessionRoots: [path.join(root, 'refuse/ws')] }),
    ).not.toThrow();
  });

  it('does not bind an exact entry on a directory (that would open its whole subtree)', () => {
    const rendering = render({ writable: [{ path: path.join(root, 'ws'), scope: 'exact' }] });
    expect(mounts(rendering.arguments).filter((mount) => mount.startsWith('--bind'))).toEqual([]);
  });
});

describe('inspectHostPath', () => {
  it('follows links, also dangling ones, and reports the nodes bwrap would create', async () => {
    const { inspectHostPath } = await import('./host-path-state.js');
    await fs.mkdir(path.join(root, 'inspect/dir'), { recursive: true });
    await fs.writeFile(path.join(root, 'inspect/file'), 'x');
    await fs.symlink(path.join(root, 'inspect/dir'), path.join(root, 'inspect/link'));
    await fs.symlink('missing-target/deeper', path.join(root, 'inspect/dangling'));
    await fs.symlink('loop-b', path.join(root, 'inspect/loop-a'));
    await fs.symlink('loop-a', path.join(root, 'inspect/loop-b'));
    const at = (relative: string) => path.join(root, 'inspect', relative);
    expect(inspectHostPath(at('dir'))).toEqual({ path: at('dir'), kind: 'directory', missingChain: [] });
    expect(inspectHostPath(at('link/../file'))).toEqual({ path: at('file'), kind: 'file', missingChain: [] });
    expect(inspectHostPath(at('link/new'))).toEqual({ path: at('dir/new'), kind: 'missing', missingChain: [at('dir/new')] });
    expect(inspectHostPath(at('dir/a/b'))).toEqual({ path: at('dir/a/b'), kind: 'missing', missingChain: [at('dir/a'), at('dir/a/b')] });
    expect(inspectHostPath(at('dangling'))).toEqual({
      path: at('missing-target/deeper'),
      kind: 'missing',
      missingChain: [at('missing-target'), at('missing-target/deeper')],
    });
    expect(inspectHostPath(at('file/below')).kind).toBe('unreachable');
    expect(inspectHostPath(at('loop-a')).kind).toBe('unreachable');
  });
});
