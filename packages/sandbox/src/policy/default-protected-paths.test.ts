import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkAccess, createSandboxPolicy } from '../index.js';
import {
  credentialHomeDefaultsGuardedWhenMissing,
  credentialHomeDefaultsUnguardedWhenMissing,
  credentialRuntimeDefaults,
  openworkHomeSecretDefaults,
  sensitiveHomeDefaults,
} from './default-protected-paths.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ow-defaults-')));
const home = path.join(root, 'home');
const ws = path.join(root, 'ws');
fs.mkdirSync(home);
fs.mkdirSync(ws);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function policy(extra: Parameters<typeof createSandboxPolicy>[0] extends infer O ? Partial<O> : never = {}) {
  return createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home, tempRoots: [], executableSearchPath: '', ...extra });
}

describe('default protected paths (architecture §3.8: each entry carries its reason)', () => {
  it('every default credential, start-up and stored-secret entry has a reason, and no entry is listed twice', () => {
    for (const list of [credentialHomeDefaultsGuardedWhenMissing, credentialHomeDefaultsUnguardedWhenMissing, sensitiveHomeDefaults, openworkHomeSecretDefaults]) {
      for (const entry of list) expect(entry.reason.length, entry.path).toBeGreaterThan(8);
      expect(new Set(list.map((entry) => entry.path)).size).toBe(list.length);
    }
    const credentials = [...credentialHomeDefaultsGuardedWhenMissing, ...credentialHomeDefaultsUnguardedWhenMissing].map((entry) => entry.path);
    expect(new Set(credentials).size).toBe(credentials.length);
  });

  it('the README lists every default credential, start-up and stored-secret entry with its reason', () => {
    const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const entry of [...credentialHomeDefaultsGuardedWhenMissing, ...credentialHomeDefaultsUnguardedWhenMissing, ...credentialRuntimeDefaults, ...sensitiveHomeDefaults, ...openworkHomeSecretDefaults]) {
      expect(readme, entry.path).toContain(`| \`${entry.path}\` | ${entry.reason.replace(/\|/g, '\\|')} |`);
    }
  });

  it('the classes of architecture §3.8 are credentials for file tools and processes, existing or not', () => {
    const p = policy();
    for (const file of ['.claude/.credentials.json', '.codex/auth.json', '.cache/huggingface/token', '.huggingface/token', '.databrickscfg', '.snowflake/connections.toml', '.config/gcloud/credentials.db', '.pgpass', '.my.cnf', '.cargo/credentials.toml', '.vault-token', '.config/hub', '.config/glab-cli/config.yml', '.terraform.d/credentials.tfrc.json', '.gem/credentials', '.m2/settings.xml', '.gradle/gradle.properties', '.nuget/NuGet/NuGet.Config', '.config/rclone/rclone.conf', '.yarnrc.yml', '.bash_history', '.zsh_history', '.python_history', '.node_repl_history', '.psql_history', '.config/op/config', '.config/Bitwarden CLI/data.json', '.config/doctl/config.yaml', '.config/containers/auth.json', '.env', '.ssh2/id_rsa_2048_a', '.composer/auth.json', '.config/pip/pip.conf']) {
      for (const actor of ['file-tool', 'process'] as const) {
        expect(checkAccess(p, path.join(home, file), 'read', actor), file).toMatchObject({ allowed: false, tier: 'credential' });
      }
    }
  });

  it('the default start-up files are sensitive (readable, not writable) even with the workspace = HOME', () => {
    const p = policy({ workspaceRoots: [home], mode: 'full-access' });
    for (const file of ['.bash_aliases', '.bash_login', '.bash_logout', '.inputrc', '.local/bin/git', '.local/lib/python3.12/site-packages/usercustomize.py', '.local/lib/python3.12/site-packages/x.pth', '.config/autostart/a.desktop', '.config/systemd/user/a.service', '.config/git/config', '.config/git/attributes', '.vimrc', '.config/nvim/init.lua', '.tmux.conf', '.ssh/rc']) {
      expect(checkAccess(p, path.join(home, file), 'write', 'process').allowed, file).toBe(false);
    }
    expect(checkAccess(p, path.join(home, '.bash_aliases'), 'read', 'file-tool').allowed).toBe(true);
    expect(checkAccess(p, path.join(home, 'notes.txt'), 'write', 'process').allowed).toBe(true);
  });

  it('PATH folders inside HOME or a session root are sensitive; relative ones, system ones and a root itself are not', () => {
    const p = policy({ executableSearchPath: `${home}/tools/bin:${ws}/bin:bin:.:/usr/local/bin:${home}:${ws}/` });
    expect(checkAccess(p, path.join(home, 'tools/bin/git'), 'write', 'process').allowed).toBe(false);
    expect(checkAccess(p, path.join(ws, 'bin/ls'), 'write', 'process').allowed).toBe(false);
    expect(checkAccess(p, path.join(ws, 'src/a.ts'), 'write', 'process').allowed).toBe(true);
    expect(p.sensitiveHomePaths).not.toContain('/usr/local/bin');
    expect(p.sensitiveHomePaths).not.toContain(home);
  });

  it('the session database files and the spill folder are unreadable, without any grant; the own spill folder is readable', () => {
    const openwork = path.join(home, '.openwork');
    const own = path.join(openwork, 'spill/session-a');
    const grant = { path: path.join(openwork, 'sessions.sqlite'), access: 'read' as const, scope: 'exact' as const };
    const p = policy({ sessionSpillDirectory: own, grants: [grant] });
    for (const name of ['sessions.sqlite', 'sessions.sqlite-wal', 'sessions.sqlite-shm', 'spill/session-b/call.txt', 'spill']) {
      const decision = checkAccess(p, path.join(openwork, name), 'read', 'file-tool');
      expect(decision, name).toMatchObject({ allowed: false, tier: 'hard-protected', sandboxDenied: false });
    }
    expect(checkAccess(p, path.join(own, 'call.txt'), 'read', 'process').allowed).toBe(true);
    expect(checkAccess(p, path.join(own, 'call.txt'), 'write', 'process').allowed).toBe(false);
    expect(checkAccess(p, path.join(openwork, 'observations.json'), 'read', 'file-tool').allowed).toBe(true);
  });

  it('the runtime folder: podman\'s registry logins are credentials there; none when it is turned off', () => {
    const runtime = path.join(root, 'run-user');
    fs.mkdirSync(runtime, { recursive: true });
    const p = policy({ runtimeDirectory: runtime });
    expect(checkAccess(p, path.join(runtime, 'containers/auth.json'), 'read', 'file-tool')).toMatchObject({ allowed: false, tier: 'credential' });
    expect(checkAccess(p, path.join(runtime, 'containers/auth.json'), 'read', 'process').allowed).toBe(false);
    expect(checkAccess(p, path.join(runtime, 'bus'), 'read', 'file-tool').allowed).toBe(true);
    expect(checkAccess(policy({ runtimeDirectory: null }), path.join(runtime, 'containers/auth.json'), 'read', 'file-tool').allowed).toBe(true);
    expect(checkAccess(policy({ runtimeDirectory: runtime, credentialPaths: { replace: [] } }), path.join(runtime, 'containers/auth.json'), 'read', 'file-tool').allowed).toBe(true);
  });
});
