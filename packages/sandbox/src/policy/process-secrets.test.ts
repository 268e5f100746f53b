import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkAccess, createSandboxPolicy, isProcessSecretPath, processSecretEntries, procfsSecretEntries } from '../index.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ow-proc-secrets-')));
fs.mkdirSync(path.join(root, 'home'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const policy = createSandboxPolicy({ workspaceRoots: [], homeDirectory: path.join(root, 'home'), tempRoots: [], executableSearchPath: '' });

describe('process secrets below procfs (file tools)', () => {
  it.skipIf(process.platform !== 'linux')('every listed entry at any depth of task/<tid>/, by pid, self or thread-self, is a credential for file tools', () => {
    for (const entry of processSecretEntries) {
      for (const base of ['/proc/1', '/proc/self', '/proc/thread-self', '/proc/42/task/43', '/proc/42/task/43/task/44', '/proc/self/task/7']) {
        const file = `${base}/${entry.path}`;
        expect(checkAccess(policy, file, 'read', 'file-tool'), file).toMatchObject({ allowed: false, tier: 'credential', sandboxDenied: true });
        expect(checkAccess(policy, `${file}/3`, 'read', 'file-tool').allowed, `${file}/3`).toBe(false);
        expect(checkAccess(policy, file, 'write', 'file-tool').allowed, `${file} write`).toBe(false);
      }
    }
    for (const file of ['/proc/kcore', '/proc/kmsg']) expect(checkAccess(policy, file, 'read', 'file-tool').allowed, file).toBe(false);
  });

  it('what stays readable: system-wide files, a process status, and names that only look alike', () => {
    for (const file of ['/proc/cpuinfo', '/proc/meminfo', '/proc/1/status', '/proc/1/task/1/stat', '/proc/1/mountinfo', '/proc/net/tcp', '/proc/sys/kernel/hostname', '/sys/class/net', '/proc/environ', '/proc/self2/environ', '/procx/1/environ', '/proc/1/net/environ']) {
      expect(checkAccess(policy, file, 'read', 'file-tool').allowed, file).toBe(true);
    }
  });

  it('sandboxed processes are judged by their own procfs (bubblewrap gives them one), not by this rule', () => {
    expect(checkAccess(policy, '/proc/1/environ', 'read', 'process').allowed).toBe(true);
  });

  it('every procfs mount counts: a second procfs at another path is judged the same', () => {
    const withAlias = { ...policy, procfsMounts: ['/proc', '/host/proc'] };
    expect(isProcessSecretPath(withAlias, '/host/proc/1/environ')).toBe(true);
    expect(isProcessSecretPath(withAlias, '/host/proc/1/status')).toBe(false);
    expect(isProcessSecretPath(policy, '/host/proc/1/environ')).toBe(false);
  });

  it('the README lists every entry with its reason', () => {
    const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const entry of [...processSecretEntries, ...procfsSecretEntries]) expect(readme, entry.path).toContain(`| \`${entry.path}\` | ${entry.reason} |`);
  });
});
