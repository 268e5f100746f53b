import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSourcesForChild } from '../test-support/compile-sources-for-child.js';
import { requireBubblewrap } from './test-support/bash-fixture.js';

/**
 * Sockets bash cannot see (architecture §3.7): a socket in another user's private folder, and one
 * in a folder of the user's own that was made unreadable (`chmod 000`), are skipped or masked
 * whole — never a failure that makes bash unavailable. The session runs as an ordinary user (a
 * throwaway account made here and removed after), as openwork runs for people; the sockets' daemons
 * listen for the whole test.
 */
const run = promisify(execFile);
const canRun = process.platform === 'linux' && process.getuid?.() === 0;
const user = `owsock${process.pid}`;

/** The session, as the throwaway user: three bash calls, their status and text. */
const sessionScript = `
import { join } from 'node:path';
import { BubblewrapBackend } from '@openwork/sandbox';
import { NodeFileSystem } from '@openwork/fs-backend';
import { NodeProcessBackend } from '@openwork/process-backend';
import { ToolSessionContext, finalizeBuiltinToolset, sessionSandboxPolicy } from './index.js';

const [root, foreign, locked, reachable] = process.argv.slice(2);
const workspace = join(root, 'workspace');
const home = join(root, 'home');
const session = new ToolSessionContext({
  workingDirectory: workspace, homeDirectory: home, sandbox: new BubblewrapBackend(),
  environment: { PATH: '/usr/bin:/bin', HOME: home }, filesystem: new NodeFileSystem(), processBackend: new NodeProcessBackend(),
});
const toolset = await finalizeBuiltinToolset(session, {});
// The test's own folder as the temp root: other users' mounts elsewhere in /tmp (a known limit) stay out of it.
const sandboxPolicy = sessionSandboxPolicy(session, { tempRoots: [root] });
const results = [];
const connect = (path) => \`\${JSON.stringify(process.execPath)} -e 'const s=require("net").connect(process.argv[1]);s.on("connect",()=>{console.log("CONNECTED");process.exit(0)});s.on("error",e=>{console.log("refused "+e.code);process.exit(0)})' \${JSON.stringify(path)}\`;
for (const command of ['echo bash-runs', connect(foreign), connect(locked), connect(reachable)]) {
  const result = await toolset.call('bash', { command }, { callId: 'c' + results.length, signal: new AbortController().signal, sandboxPolicy });
  results.push({ status: result.status, text: result.content.map((part) => part.text ?? '').join('\\\\n') });
}
console.log(JSON.stringify(results));
process.exit(0);
`;

/**
 * The race, as the throwaway user: another user's socket it may reach when the call is wrapped,
 * whose folder that user makes private before the sandbox starts. The start fails as the runner's;
 * `vanishedMaskTarget` must name the socket so that the call is wrapped again, and the next wrap
 * runs. The child says "wrapped" and waits for a line on stdin: the test changes the folder then.
 */
const raceScript = `
import { spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { BubblewrapBackend, createSandboxPolicy, vanishedMaskTarget } from '@openwork/sandbox';

const [root, ...sockets] = process.argv.slice(2);
const workspace = join(root, 'workspace');
const policy = createSandboxPolicy({ workspaceRoots: [workspace], homeDirectory: join(root, 'home'), tempRoots: [root], executableSearchPath: '' });
const backend = new BubblewrapBackend();
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const results = [];
for (const socket of sockets) {
  const first = backend.wrap({ argv: ['/bin/echo', 'ran'], cwd: workspace }, policy);
  console.log('wrapped');
  await lines.next();
  const run = spawnSync(first.argv[0], first.argv.slice(1), { cwd: workspace, encoding: 'utf8' });
  await first.release();
  const vanished = vanishedMaskTarget(first.argv, { exitCode: run.status, output: run.stderr });
  const again = backend.wrap({ argv: ['/bin/echo', 'ran'], cwd: workspace }, policy);
  const second = spawnSync(again.argv[0], again.argv.slice(1), { cwd: workspace, encoding: 'utf8' });
  await again.release();
  results.push({ socket, masked: first.argv.includes(socket), firstStatus: run.status, firstError: run.stderr.trim(), vanished, second: second.stdout.trim() });
}
console.log(JSON.stringify(results));
process.exit(0);
`;

let build: string | undefined;
let root: string | undefined;
let uid = 0;
const daemons: ChildProcess[] = [];

/** A host daemon listening on `path`, as `asUid`; `then` runs in it once it listens (e.g. a chmod). */
async function listen(path: string, asUid: number, then = ''): Promise<void> {
  const code = `require('net').createServer(()=>{}).listen(process.argv[1],()=>{${then};console.log('listening')})`;
  const daemon = spawn(process.execPath, ['-e', code, path], { uid: asUid, gid: asUid === 0 ? 0 : 100, stdio: ['ignore', 'pipe', 'inherit'] });
  daemons.push(daemon);
  await new Promise<void>((resolve, reject) => {
    daemon.stdout!.once('data', () => resolve());
    daemon.once('exit', (code) => reject(new Error(`the daemon at ${path} exited (${code})`)));
  });
}

beforeAll(async () => {
  if (!canRun) return;
  await requireBubblewrap();
  execFileSync('useradd', ['--no-create-home', '--no-user-group', '--gid', '100', '--shell', '/usr/sbin/nologin', user]);
  uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
  build = await compileSourcesForChild();
  await writeFile(join(build, 'foreign-sockets-session.js'), sessionScript);
  await writeFile(join(build, 'foreign-sockets-race.js'), raceScript);
  execFileSync('chmod', ['-R', 'a+rX', build]);
  root = await mkdtemp(join(tmpdir(), 'ow-foreign-sockets-'));
  await chmod(root, 0o755);
  for (const folder of ['workspace', 'home', 'own']) {
    await mkdir(join(root, folder));
    await chown(join(root, folder), uid, 100);
  }
  // Another user's (root's) private folder with a socket in it, in the temp root bash may write.
  await mkdir(join(root, 'private'), { mode: 0o700 });
  await listen(join(root, 'private', 'agent.sock'), 0);

  // A folder of the user's own holding a socket of the user's own, made unreadable once it listens.
  await mkdir(join(root, 'own', 'locked'));
  await chown(join(root, 'own', 'locked'), uid, 100);
  // Another user's folder the user may pass through but not list, with a socket anyone may use:
  // reachable on the host, so it must be masked in the sandbox.
  await mkdir(join(root, 'passable'), { mode: 0o711 });
  await chmod(join(root, 'passable'), 0o711);
  const open = JSON.stringify(join(root, 'passable', 'open.sock'));
  await listen(join(root, 'passable', 'open.sock'), 0, `require('fs').chmodSync(${open},0o777)`);
  // Root's sockets anyone may use, in folders anyone may pass (until the race makes them private):
  // one in the temp root (masked by the stage helper inside the overlay), one outside every writable
  // folder (masked by bwrap itself).
  for (const folder of [join(root, 'race'), join(root, 'outside-race')]) {
    await mkdir(folder, { mode: 0o711 });
    await chmod(folder, 0o711);
    const socket = JSON.stringify(join(folder, 'race.sock'));
    await listen(join(folder, 'race.sock'), 0, `require('fs').chmodSync(${socket},0o777)`);
  }
  const locked = JSON.stringify(join(root, 'own', 'locked'));
  await listen(join(root, 'own', 'locked', 'task.sock'), uid, `require('fs').chmodSync(${locked},0)`);
}, 60_000);

afterAll(async () => {
  for (const daemon of daemons) daemon.kill('SIGKILL');
  if (root !== undefined) {
    await chmod(join(root, 'own', 'locked'), 0o700).catch(() => undefined);
    await rm(root, { recursive: true, force: true });
  }
  if (build !== undefined) await rm(build, { recursive: true, force: true });
  if (uid !== 0) execFileSync('userdel', [user]);
});

describe.skipIf(!canRun)('sockets bash cannot see (as an ordinary user)', () => {
  it("another user's private socket, an unreadable folder's socket, another user's open socket: bash runs, none is reached", async () => {
    // setpriv, not spawn's uid/gid options: those keep root's supplementary groups.
    const session = [join(build!, 'foreign-sockets-session.js'), root!, join(root!, 'private', 'agent.sock'), join(root!, 'own', 'locked', 'task.sock'), join(root!, 'passable', 'open.sock')];
    const { stdout } = await run('setpriv', [`--reuid=${uid}`, '--regid=100', '--clear-groups', process.execPath, ...session], {
      env: { PATH: '/usr/bin:/bin', HOME: join(root!, 'home') },
      cwd: join(root!, 'workspace'),
    });
    const [plain, foreign, locked, reachable] = JSON.parse(stdout.trim().split('\n').at(-1)!) as { status: string; text: string }[];
    expect(plain, JSON.stringify(plain)).toMatchObject({ status: 'succeeded' });
    expect(plain!.text).toContain('bash-runs');
    for (const result of [foreign!, locked!, reachable!]) {
      expect(result.status, result.text).toBe('succeeded');
      expect(result.text).toContain('refused');
      expect(result.text).not.toContain('CONNECTED');
    }
    // The one the user could reach on the host is masked (refused, not a permission error).
    expect(reachable!.text).toContain('refused ECONNREFUSED');
  }, 60_000);

  it('a socket whose folder becomes private between the wrap and the start: recognised, and the next wrap runs', async () => {
    const folders = [join(root!, 'race'), join(root!, 'outside-race')];
    const child = spawn('setpriv', [`--reuid=${uid}`, '--regid=100', '--clear-groups', process.execPath, join(build!, 'foreign-sockets-race.js'), root!, ...folders.map((folder) => join(folder, 'race.sock'))], {
      env: { PATH: '/usr/bin:/bin', HOME: join(root!, 'home') },
      cwd: join(root!, 'workspace'),
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let output = '';
    let next = 0;
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      output += chunk;
      while (output.split('\n').filter((line) => line === 'wrapped').length > next) {
        // The other user makes the folder private: the socket is out of the session user's reach now.
        execFileSync('chmod', ['700', folders[next]!]);
        next += 1;
        child.stdin!.write('go\n');
      }
    });
    await new Promise<void>((resolve) => child.once('close', () => resolve()));
    const results = JSON.parse(output.trim().split('\n').at(-1)!) as { socket: string; masked: boolean; firstStatus: number; firstError: string; vanished: string | undefined; second: string }[];
    expect(results).toHaveLength(2);
    for (const result of results) {
      expect(result.masked, JSON.stringify(result)).toBe(true);
      if (result.firstStatus !== 0) expect(result.vanished, JSON.stringify(result)).toBe(result.socket);
      expect(result.second, JSON.stringify(result)).toBe('ran');
    }
    // At least one start really failed on the unreadable folder (else the race was not made).
    expect(results.some((result) => result.firstStatus !== 0), JSON.stringify(results)).toBe(true);
  }, 60_000);
});
