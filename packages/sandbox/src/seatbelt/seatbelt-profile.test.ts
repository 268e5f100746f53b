import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SeatbeltEvaluator,
  createSandboxPolicy,
  deriveSandboxLayout,
  parseSeatbeltProfile,
  renderSeatbeltProfile,
  seatbeltArguments,
  withGrants,
  type LetterCase,
  type NetworkAccess,
  type SandboxMode,
  type SeatbeltExpression,
  type SeatbeltProfileOptions,
} from '../index.js';

let root: string;
let ws: string;
let home: string;
let temp: string;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ow-seatbelt-')));
  ws = path.join(root, 'ws');
  home = path.join(root, 'home');
  temp = path.join(root, 'tmp');
  for (const directory of [ws, home, temp]) await fs.mkdir(directory);
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

interface RenderOptions {
  readonly mode?: SandboxMode;
  readonly network?: NetworkAccess;
  readonly letterCase?: LetterCase;
  readonly profile?: SeatbeltProfileOptions;
  readonly allowSockets?: readonly string[];
}

function render({ mode = 'workspace-write', network, letterCase = 'sensitive', profile, allowSockets = [] }: RenderOptions = {}) {
  const policy = withGrants(createSandboxPolicy({ mode, workspaceRoots: [ws], homeDirectory: home, tempRoots: [temp], network, letterCase, allowSockets }), [
    { path: path.join(ws, '.git/hooks/pre-commit'), access: 'write', scope: 'exact' },
    { path: path.join(home, '.ssh/config'), access: 'read', scope: 'exact' },
  ]);
  return renderSeatbeltProfile(deriveSandboxLayout(policy), profile);
}

function evaluatorFor(options: RenderOptions = {}): SeatbeltEvaluator {
  const profile = render(options);
  return SeatbeltEvaluator.compile(profile.profile, profile.parameters);
}

function walk(expression: SeatbeltExpression, visit: (expression: SeatbeltExpression) => void): void {
  visit(expression);
  if (expression.type === 'list') for (const item of expression.items) walk(item, visit);
}

const everyVariant: RenderOptions[] = (['read-only', 'workspace-write', 'full-access'] as const).flatMap((mode) =>
  (['sensitive', 'insensitive'] as const).flatMap((letterCase) =>
    (['allow', 'none'] as const).map((network) => ({ mode, letterCase, network, profile: { hereDocumentDirectories: ['/private/var/tmp'] } })),
  ),
);

describe('Seatbelt profile (architecture §3.4)', () => {
  it('paths appear only as -D parameters, never inlined in the profile', () => {
    for (const variant of everyVariant) {
      const profile = render(variant);
      const strings: string[] = [];
      for (const expression of parseSeatbeltProfile(profile.profile)) {
        walk(expression, (node) => {
          if (node.type === 'string') strings.push(node.value);
        });
      }
      expect(strings.filter((value) => value.includes('/')), JSON.stringify(variant)).toEqual([]);
      expect(profile.profile).not.toContain(root);
      expect(Object.values(profile.parameters).some((value) => value.includes(root))).toBe(true);
    }
    const sensitive = render({ letterCase: 'sensitive' });
    expect(Object.values(sensitive.parameters)).toContain(path.join(ws, '.openwork'));
  });

  it('has no deny rule but the default: exclusions are folded into the allow rules', () => {
    for (const variant of everyVariant) {
      const rules = parseSeatbeltProfile(render(variant).profile).filter((expression) => expression.type === 'list');
      const heads = rules.map((rule) => (rule.type === 'list' && rule.items[0]?.type === 'symbol' ? rule.items[0].name : ''));
      expect(heads.filter((name) => name === 'deny')).toHaveLength(1);
    }
    expect(render().profile).toMatch(/^\(deny default\)$/m);
    expect(render().profile).toMatch(/\(allow file-write\* \(require-all \(subpath \(param "WRITABLE_ROOT_0"\)\)( \(require-not \((literal|subpath) \(param "(READ_ONLY|UNREADABLE|PROTECTED_PARENT)_\d+"\)\)\))+ \(require-not \(regex \(param "SENSITIVE_KINDS_\d+"\)\)\)\)\)/);
  });

  it('protected subtrees are excluded by literal and subpath, so mkdir of a missing .vscode is stopped too', () => {
    const profile = render();
    const vscode = Object.entries(profile.parameters).find(([, value]) => value === path.join(ws, '.vscode'));
    expect(vscode).toBeDefined();
    const name = vscode?.[0] ?? '';
    expect(profile.profile).toContain(`(require-not (literal (param "${name}")))`);
    expect(profile.profile).toContain(`(require-not (subpath (param "${name}")))`);
    const evaluator = SeatbeltEvaluator.compile(profile.profile, profile.parameters);
    expect(evaluator.decide('file-write-create', path.join(ws, '.vscode'))).toBe('deny');
    expect(evaluator.decide('file-write*', path.join(ws, '.vscode/settings.json'))).toBe('deny');
    expect(evaluator.decide('file-write*', path.join(ws, '.vscodex'))).toBe('allow');
  });

  it('credential reads are excluded inside the allow file-read* rule, and read grants reopen what they name', () => {
    const profile = render();
    expect(profile.profile).toMatch(/\(allow file-read\* \(require-all \(subpath \(param "READ_ROOT_0"\)\) \(require-not/);
    const evaluator = SeatbeltEvaluator.compile(profile.profile, profile.parameters);
    expect(evaluator.decide('file-read*', path.join(home, '.ssh/id_rsa'))).toBe('deny');
    expect(evaluator.decide('file-read*', path.join(home, '.ssh/config'))).toBe('allow');
    expect(evaluator.decide('file-write*', path.join(ws, '.git/hooks/pre-commit'))).toBe('allow');
    expect(evaluator.decide('file-write*', path.join(ws, '.git/hooks/post-commit'))).toBe('deny');
  });

  it('argv is sandbox-exec -p <profile> -D NAME=value … -- <argv>', () => {
    const profile = render();
    const argv = seatbeltArguments(profile, ['/bin/bash', '-c', 'echo hi']);
    expect(argv.slice(0, 3)).toEqual(['/usr/bin/sandbox-exec', '-p', profile.profile]);
    expect(argv.slice(-4)).toEqual(['--', '/bin/bash', '-c', 'echo hi']);
    const definitions = argv.slice(3, -4);
    expect(definitions.length).toBe(Object.keys(profile.parameters).length * 2);
    for (let index = 0; index < definitions.length; index += 2) {
      expect(definitions[index]).toBe('-D');
      const [name, ...value] = (definitions[index + 1] ?? '').split('=');
      expect(profile.parameters[name ?? '']).toBe(value.join('='));
    }
  });
});

describe('network (spec §7.9)', () => {
  it('the default allows the network in every mode, like bubblewrap: sockets, name resolution, TLS trust', () => {
    for (const mode of ['read-only', 'workspace-write', 'full-access'] as const) {
      const profile = render({ mode });
      expect(profile.profile).toContain('\n(allow network-inbound network-bind)\n');
      const evaluator = SeatbeltEvaluator.compile(profile.profile, profile.parameters);
      for (const operation of ['network-outbound', 'network-inbound', 'network-bind', 'system-socket']) {
        expect(evaluator.decideQuery(operation, { remote: 'ip' }), `${mode} ${operation}`).toBe('allow');
      }
      for (const service of ['com.apple.SystemConfiguration.DNSConfiguration', 'com.apple.trustd.agent', 'com.apple.SecurityServer']) {
        expect(evaluator.decideQuery('mach-lookup', { name: service }), service).toBe('allow');
      }
    }
  });

  it("network 'none' renders no network rule at all, so (deny default) refuses every socket", () => {
    for (const mode of ['read-only', 'workspace-write', 'full-access'] as const) {
      const profile = render({ mode, network: 'none' });
      expect(profile.profile).not.toMatch(/network|system-socket|trustd|DNSConfiguration/);
      const evaluator = SeatbeltEvaluator.compile(profile.profile, profile.parameters);
      for (const operation of ['network-outbound', 'network-inbound', 'network-bind', 'system-socket']) {
        expect(evaluator.decideQuery(operation, {}), `${mode} ${operation}`).toBe('deny');
      }
      // Files are unaffected by the network setting.
      expect(evaluator.decide('file-read*', '/etc/hosts')).toBe('allow');
    }
  });
});

describe('UNIX sockets of host daemons (architecture §3.7)', () => {
  const outbound = (evaluator: SeatbeltEvaluator, socket: string) => evaluator.decideQuery('network-outbound', { remote: 'unix-socket', path: socket });

  it('connecting to a UNIX socket is denied in every mode and network setting: tmux, ssh-agent, docker', () => {
    for (const mode of ['read-only', 'workspace-write', 'full-access'] as const) {
      for (const network of ['allow', 'none'] as const) {
        const profile = render({ mode, network });
        const evaluator = SeatbeltEvaluator.compile(profile.profile, profile.parameters);
        for (const socket of ['/private/tmp/tmux-501/default', '/private/tmp/com.apple.launchd.x/Listeners', '/private/var/run/docker.sock', `${ws}/daemon.sock`]) {
          expect(outbound(evaluator, socket), `${mode} ${network} ${socket}`).toBe('deny');
        }
        expect(outbound(evaluator, '/private/var/run/mDNSResponder'), 'name resolution').toBe(network === 'allow' ? 'allow' : 'deny');
      }
    }
  });

  it('allowSockets reopens exactly the named sockets, as -D parameters', () => {
    for (const network of ['allow', 'none'] as const) {
      const profile = render({ network, allowSockets: ['/private/tmp/ssh-x/agent.1'] });
      expect(profile.profile).not.toContain('/private/tmp/ssh-x');
      expect(Object.values(profile.parameters)).toContain('/private/tmp/ssh-x/agent.1');
      const evaluator = SeatbeltEvaluator.compile(profile.profile, profile.parameters);
      expect(outbound(evaluator, '/private/tmp/ssh-x/agent.1')).toBe('allow');
      expect(outbound(evaluator, '/private/tmp/ssh-x/agent.2')).toBe('deny');
    }
  });
});

describe('folders holding protected entries cannot be moved', () => {
  it('mv .git .g, edit .g/hooks, mv .g .git: both moves are refused; ordinary folders still move', () => {
    const evaluator = evaluatorFor();
    expect(evaluator.decideRename(path.join(ws, '.git'), path.join(ws, '.g'))).toBe('deny');
    expect(evaluator.decideRename(path.join(ws, '.g'), path.join(ws, '.git'))).toBe('deny');
    expect(evaluator.decide('file-write-unlink', path.join(ws, '.git'))).toBe('deny');
    expect(evaluator.decide('file-write-create', path.join(ws, '.git'))).toBe('deny');
    // The workspace root itself holds .vscode, .envrc …: moving it away (to another writable root) is refused too.
    expect(evaluator.decideRename(ws, path.join(temp, 'ws-old'))).toBe('deny');
    // What git needs inside .git is unchanged.
    expect(evaluator.decide('file-write*', path.join(ws, '.git/index.lock'))).toBe('allow');
    expect(evaluator.decideRename(path.join(ws, '.git/index.lock'), path.join(ws, '.git/index'))).toBe('allow');
    expect(evaluator.decideRename(path.join(ws, 'src'), path.join(ws, 'lib'))).toBe('allow');
  });

  it('full-access: mv ~/.config ~/.cfg and mv ~ ~.old are refused; other home folders move', () => {
    const evaluator = evaluatorFor({ mode: 'full-access' });
    expect(evaluator.decideRename(path.join(home, '.config'), path.join(home, '.cfg'))).toBe('deny');
    expect(evaluator.decideRename(home, `${home}.old`)).toBe('deny');
    expect(evaluator.decideRename(path.join(home, '.local'), path.join(home, '.lcl'))).toBe('deny');
    expect(evaluator.decideRename(root, `${root}.old`)).toBe('deny');
    expect(evaluator.decideRename(path.join(home, 'Documents'), path.join(home, 'Docs'))).toBe('allow');
    expect(evaluator.decide('file-write*', path.join(home, '.config/other/settings.json'))).toBe('allow');
  });

  it('the folders are exact exclusions (literal), so files inside them stay writable', () => {
    const profile = render({ mode: 'full-access' });
    const parent = Object.entries(profile.parameters).find(([name, value]) => name.startsWith('PROTECTED_PARENT_') && value === path.join(home, '.config'));
    expect(parent).toBeDefined();
    expect(profile.profile).toContain(`(require-not (literal (param "${parent?.[0]}")))`);
    expect(profile.profile).not.toContain(`(subpath (param "${parent?.[0]}"))`);
  });
});

describe('letter case', () => {
  it('insensitive: protected names are regex parameters with a class per letter, and every spelling is excluded', () => {
    const profile = render({ letterCase: 'insensitive', mode: 'full-access' });
    const patterns = Object.entries(profile.parameters).filter(([name]) => name.includes('_PATTERN_'));
    expect(patterns.map(([, value]) => value)).toContain(`${seatbeltEscape(ws)}/\\.[gG][iI][tT]/[hH][oO][oO][kK][sS](/|$)`);
    const evaluator = SeatbeltEvaluator.compile(profile.profile, profile.parameters);
    for (const spelling of ['.GIT/config', '.Git/hooks/pre-push', '.VSCODE/tasks.json', '.vsCode', '.ENVRC', '.OpenWork/state.json']) {
      expect(evaluator.decide('file-write*', path.join(ws, spelling)), spelling).toBe('deny');
    }
    expect(evaluator.decide('file-read*', path.join(home, '.SSH/id_ed25519'))).toBe('deny');
    expect(evaluator.decide('file-read*', path.join(home, '.Aws/credentials'))).toBe('deny');
    expect(evaluator.decideRename(path.join(ws, '.GIT'), path.join(ws, '.g'))).toBe('deny');
    expect(evaluator.decideRename(path.join(home, '.CONFIG'), path.join(home, '.cfg'))).toBe('deny');
    // Ordinary names are untouched by folding.
    expect(evaluator.decide('file-write*', path.join(ws, 'SRC/main.ts'))).toBe('allow');
  });

  it('sensitive: only the exact spelling is protected (a case-sensitive volume has other files there)', () => {
    const evaluator = evaluatorFor({ letterCase: 'sensitive' });
    expect(evaluator.decide('file-write*', path.join(ws, '.VSCODE/tasks.json'))).toBe('allow');
    expect(evaluator.decide('file-write*', path.join(ws, '.vscode/tasks.json'))).toBe('deny');
  });

  it('folding never widens: allow-side entries (roots, grants) keep their exact spelling', () => {
    const evaluator = evaluatorFor({ letterCase: 'insensitive' });
    expect(evaluator.decide('file-write*', path.join(ws.toUpperCase(), 'x'))).toBe('deny');
    expect(evaluator.decide('file-read*', path.join(home, '.SSH/config'))).toBe('deny');
    expect(evaluator.decide('file-read*', path.join(home, '.ssh/config'))).toBe('allow');
  });
});

describe('what ordinary commands need', () => {
  it('PTYs: pseudo-tty, /dev/ptmx, and the /dev/ttysN the command opened itself (pty extension) — not the user’s terminal', () => {
    const evaluator = evaluatorFor({ mode: 'read-only' });
    const own = { vnodeType: 'CHARACTER-DEVICE' as const, extensions: ['com.apple.sandbox.pty'] };
    expect(evaluator.decideQuery('pseudo-tty', {})).toBe('allow');
    expect(evaluator.decide('file-write-data', '/dev/ptmx', { vnodeType: 'CHARACTER-DEVICE' })).toBe('allow');
    expect(evaluator.decide('file-ioctl', '/dev/ptmx')).toBe('allow');
    expect(evaluator.decide('file-write-data', '/dev/ttys004', own)).toBe('allow');
    expect(evaluator.decide('file-ioctl', '/dev/ttys004', own)).toBe('allow');
    expect(evaluator.decide('file-write-data', '/dev/ttys004', { vnodeType: 'CHARACTER-DEVICE' })).toBe('deny');
    expect(evaluator.decide('file-ioctl', '/dev/ttys004', { vnodeType: 'CHARACTER-DEVICE' })).toBe('deny');
    expect(evaluator.decide('file-write-mode', '/dev/ttys004', own)).toBe('deny');
    expect(evaluator.decide('file-write-data', '/dev/ttys004x', own)).toBe('deny');
  });

  it('/dev/fd/N: any descriptor the process holds is readable and writable as data (tee >(…), /dev/fd/3)', () => {
    const evaluator = evaluatorFor({ mode: 'read-only' });
    for (const descriptor of ['/dev/fd/0', '/dev/fd/1', '/dev/fd/3', '/dev/fd/12']) {
      expect(evaluator.decide('file-write-data', descriptor), descriptor).toBe('allow');
      expect(evaluator.decide('file-read-data', descriptor), descriptor).toBe('allow');
    }
    expect(evaluator.decide('file-write-data', '/dev/fd/x')).toBe('deny');
    expect(evaluator.decide('file-write-unlink', '/dev/fd/3')).toBe('deny');
  });

  it('here-documents in read-only mode: bash 3.2 may create sh-thd-* directly in the given folders, nothing else', () => {
    const evaluator = evaluatorFor({ mode: 'read-only', profile: { hereDocumentDirectories: [temp, '/private/var/tmp'] } });
    expect(evaluator.decide('file-write*', path.join(temp, 'sh-thd-1234567'))).toBe('allow');
    expect(evaluator.decide('file-write*', '/private/var/tmp/sh-thd-6uXgQ2')).toBe('allow');
    expect(evaluator.decide('file-write*', path.join(temp, 'notes.txt'))).toBe('deny');
    expect(evaluator.decide('file-write*', path.join(temp, 'sub/sh-thd-1'))).toBe('deny');
    expect(evaluator.decide('file-write*', path.join(temp, 'sh-thd-'))).toBe('deny');
    expect(evaluator.decide('file-write*', path.join(ws, 'sh-thd-1'))).toBe('deny');
    // Without the option, read-only writes nothing there.
    expect(evaluatorFor({ mode: 'read-only' }).decide('file-write*', path.join(temp, 'sh-thd-1234567'))).toBe('deny');
  });

  it('preferences: the preferences daemon, its shared memory, and reading preferences (defaults read)', () => {
    const evaluator = evaluatorFor();
    expect(evaluator.decideQuery('user-preference-read', {})).toBe('allow');
    for (const service of ['com.apple.cfprefsd.daemon', 'com.apple.cfprefsd.agent']) {
      expect(evaluator.decideQuery('mach-lookup', { name: service }), service).toBe('allow');
    }
    expect(evaluator.decideQuery('ipc-posix-shm-read-data', { name: 'apple.cfprefs.501' })).toBe('allow');
    expect(evaluator.decideQuery('ipc-posix-shm-write-data', { name: 'apple.cfprefs.501' })).toBe('deny');
    expect(evaluator.decideQuery('user-preference-write', {})).toBe('deny');
  });

  it('libomp (import torch): its registration segment only; Python multiprocessing semaphores', () => {
    const evaluator = evaluatorFor();
    for (const operation of ['ipc-posix-shm-read-data', 'ipc-posix-shm-write-create', 'ipc-posix-shm-write-unlink']) {
      expect(evaluator.decideQuery(operation, { name: '/__KMP_REGISTERED_LIB_4242' }), operation).toBe('allow');
    }
    expect(evaluator.decideQuery('ipc-posix-shm-write-create', { name: '/other_segment' })).toBe('deny');
    expect(evaluator.decideQuery('ipc-posix-shm-read-data', { name: '/__KMP_REGISTERED_LIB_x' })).toBe('deny');
    expect(evaluator.decideQuery('ipc-posix-sem', { name: '/mp-abc' })).toBe('allow');
  });

  it('setuid programs (ps) stay refused by the kernel: no no-sandbox exception', () => {
    for (const variant of everyVariant) expect(render(variant).profile).not.toMatch(/no-sandbox/);
  });
});

describe('narrower than the first profile', () => {
  it('device files take data writes to character devices and ioctl only: no unlink, mode, owner or rename', () => {
    const evaluator = evaluatorFor({ mode: 'read-only' });
    for (const device of ['/dev/null', '/dev/zero', '/dev/tty', '/dev/urandom']) {
      expect(evaluator.decide('file-write-data', device, { vnodeType: 'CHARACTER-DEVICE' }), device).toBe('allow');
      expect(evaluator.decide('file-ioctl', device), device).toBe('allow');
      for (const operation of ['file-write-unlink', 'file-write-mode', 'file-write-owner', 'file-write-create', 'file-write-times']) {
        expect(evaluator.decide(operation, device, { vnodeType: 'CHARACTER-DEVICE' }), `${operation} ${device}`).toBe('deny');
      }
      // A device name that is not a character device (replaced by a file) takes no data either.
      expect(evaluator.decide('file-write-data', device, { vnodeType: 'REGULAR-FILE' }), device).toBe('deny');
    }
    expect(evaluator.decide('file-write-data', '/dev/disk0', { vnodeType: 'BLOCK-DEVICE' })).toBe('deny');
  });

  it('sysctls: a listed set (CPU, memory, OS version, our processes), not every kernel setting', () => {
    const evaluator = evaluatorFor();
    for (const name of ['hw.ncpu', 'hw.memsize', 'hw.optional.arm.FEAT_LSE', 'kern.osproductversion', 'kern.hostname', 'kern.proc.pid.123', 'machdep.cpu.brand_string', 'vm.loadavg']) {
      expect(evaluator.decideQuery('sysctl-read', { name }), name).toBe('allow');
    }
    for (const name of ['kern.bootargs', 'kern.proc.all', 'security.mac.amfi.something', 'net.inet.tcp.sendspace']) {
      expect(evaluator.decideQuery('sysctl-read', { name }), name).toBe('deny');
    }
    expect(evaluator.decideQuery('sysctl-write', { name: 'kern.grade_cputype' })).toBe('allow');
    expect(evaluator.decideQuery('sysctl-write', { name: 'kern.hostname' })).toBe('deny');
  });

  it('shared memory: only the named segments above; mach services: no CoreServices or launch services', () => {
    const evaluator = evaluatorFor();
    expect(evaluator.decideQuery('ipc-posix-shm-read-data', { name: '/some-other-app' })).toBe('deny');
    for (const service of ['com.apple.CoreServices.coreservicesd', 'com.apple.coreservices.launchservicesd', 'com.apple.windowserver.active']) {
      expect(evaluator.decideQuery('mach-lookup', { name: service }), service).toBe('deny');
    }
    expect(evaluator.decideQuery('mach-lookup', { name: 'com.apple.system.opendirectoryd.libinfo' })).toBe('allow');
    expect(evaluator.decideQuery('signal', { target: 'other' })).toBe('deny');
    expect(evaluator.decideQuery('signal', { target: 'same-sandbox' })).toBe('allow');
  });
});

/** The escaped form of a path in a Seatbelt pattern (no letters folded), for expectations. */
function seatbeltEscape(value: string): string {
  return `^${value.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&').replace(/[a-zA-Z]/g, (letter) => `[${letter.toLowerCase()}${letter.toUpperCase()}]`)}`;
}
