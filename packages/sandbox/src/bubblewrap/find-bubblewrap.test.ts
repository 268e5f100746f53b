import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BubblewrapBackend } from '../index.js';
import { DEFAULT_BWRAP_PATH, findBubblewrap } from './find-bubblewrap.js';

const cleanup: string[] = [];
afterEach(() => {
  for (const directory of cleanup.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function folders(...names: string[]): string[] {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'ow-find-bwrap-')));
  cleanup.push(root);
  return names.map((name) => {
    mkdirSync(join(root, name), { recursive: true });
    return join(root, name);
  });
}

function executable(path: string): void {
  writeFileSync(path, '#!/bin/sh\nexit 0\n');
  chmodSync(path, 0o755);
}

describe('bwrap is found on PATH, not only at /usr/bin/bwrap', () => {
  it('takes the first executable regular file named bwrap in PATH order', () => {
    const [relativeLooking, empty, notExecutable, folderNamedBwrap, first, second] = folders('a', 'b', 'c', 'd', 'e', 'f') as [string, string, string, string, string, string];
    writeFileSync(join(notExecutable, 'bwrap'), 'not a program');
    mkdirSync(join(folderNamedBwrap, 'bwrap'));
    executable(join(first, 'bwrap'));
    executable(join(second, 'bwrap'));
    const searchPath = ['relative/bin', '', relativeLooking, empty, notExecutable, folderNamedBwrap, first, second].join(delimiter);
    expect(findBubblewrap(searchPath)).toBe(join(first, 'bwrap'));
  });

  it('answers /usr/bin/bwrap without one, so the self-check names the missing program and how to install it', async () => {
    const [empty] = folders('empty') as [string];
    expect(findBubblewrap(empty)).toBe(DEFAULT_BWRAP_PATH);
    expect(findBubblewrap(undefined)).toBe(DEFAULT_BWRAP_PATH);
    const availability = await new BubblewrapBackend({ bwrapPath: join(empty, 'bwrap') }).selfCheck();
    expect(availability).toEqual({
      available: false,
      reason: `bubblewrap is not installed: no executable at ${join(empty, 'bwrap')} (spawn ENOENT); install it with apt-get install bubblewrap (Debian, Ubuntu), dnf install bubblewrap (Fedora, RHEL), pacman -S bubblewrap (Arch), zypper install bubblewrap (openSUSE)`,
    });
  });

  it('the backend uses the bwrap of the host PATH when it is made', () => {
    const [folder] = folders('bin') as [string];
    executable(join(folder, 'bwrap'));
    const saved = process.env['PATH'];
    process.env['PATH'] = `${folder}${delimiter}${saved ?? ''}`;
    try {
      expect(new BubblewrapBackend().bwrapPath).toBe(join(folder, 'bwrap'));
    } finally {
      process.env['PATH'] = saved;
    }
  });
});
