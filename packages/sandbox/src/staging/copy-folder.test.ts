import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyFolder } from './copy-regular-file.js';

const made: string[] = [];
afterEach(() => {
  for (const folder of made.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

function scratch(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ow-copy-folder-'));
  made.push(folder);
  return folder;
}

describe('copyFolder (a conflict copy of a folder a command wrote)', () => {
  it('copies files, links as links and folders, byte-exact names, and never follows a link', () => {
    const root = scratch();
    const outside = path.join(root, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'host secret\n');
    const source = path.join(root, 'source');
    fs.mkdirSync(path.join(source, 'nested'), { recursive: true });
    fs.writeFileSync(path.join(source, 'a.txt'), 'alpha\n');
    fs.writeFileSync(path.join(source, 'nested', 'b.txt'), 'beta\n');
    fs.writeFileSync(Buffer.concat([Buffer.from(`${source}/caf`), Buffer.from([0xe9]), Buffer.from('.txt')]), 'latin-1 name\n');
    fs.symlinkSync(outside, path.join(source, 'link-to-outside'));
    const target = path.join(root, 'kept');
    copyFolder(source, target);
    expect(fs.readFileSync(path.join(target, 'a.txt'), 'utf8')).toBe('alpha\n');
    expect(fs.readFileSync(path.join(target, 'nested', 'b.txt'), 'utf8')).toBe('beta\n');
    expect(fs.readFileSync(Buffer.concat([Buffer.from(`${target}/caf`), Buffer.from([0xe9]), Buffer.from('.txt')]), 'utf8')).toBe('latin-1 name\n');
    expect(fs.lstatSync(path.join(target, 'link-to-outside')).isSymbolicLink()).toBe(true);
    expect(fs.readlinkSync(path.join(target, 'link-to-outside'))).toBe(outside);
    expect(fs.existsSync(path.join(target, 'link-to-outside', 'secret.txt'))).toBe(true); // the link, not a copy of what it names
    expect(fs.lstatSync(path.join(target, 'link-to-outside')).isDirectory()).toBe(false);
  });

  it('refuses a source that is a link to a folder: nothing of the host folder is copied', () => {
    const root = scratch();
    const outside = path.join(root, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'host secret\n');
    fs.symlinkSync(outside, path.join(root, 'swapped'));
    expect(() => copyFolder(path.join(root, 'swapped'), path.join(root, 'kept'))).toThrow();
    expect(fs.existsSync(path.join(root, 'kept'))).toBe(false);
  });

  it('a folder swapped for a link while it is copied, many times over, never ends the process and never copies what the link names', async () => {
    const root = scratch();
    const outside = path.join(root, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'host secret\n');
    const source = path.join(root, 'source');
    fs.mkdirSync(path.join(source, 'd'), { recursive: true });
    fs.writeFileSync(path.join(source, 'd', 'inner.txt'), 'inner\n');
    // Another process flips source/d between a folder and a link to the outside folder.
    const { spawn } = await import('node:child_process');
    const flipper = spawn('/bin/bash', ['-c', `cd ${source}; while true; do rm -rf d; ln -s ${outside} d; rm -f d; mkdir d; echo x > d/inner.txt; done`], { stdio: 'ignore' });
    try {
      for (let round = 0; round < 300; round += 1) {
        const target = path.join(root, `kept-${round}`);
        try {
          copyFolder(source, target);
        } catch {
          // the source itself changed: nothing to keep
        }
        if (fs.existsSync(path.join(target, 'd'))) {
          const stats = fs.lstatSync(path.join(target, 'd'));
          if (stats.isDirectory()) expect(fs.existsSync(path.join(target, 'd', 'secret.txt'))).toBe(false);
        }
      }
    } finally {
      flipper.kill('SIGKILL');
    }
  });
});
