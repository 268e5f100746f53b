import { constants, rmSync } from 'node:fs';
import { open, readFile, rm, stat } from 'node:fs/promises';
import { release, version } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SandboxAvailability, SandboxBackend, SandboxCommand, SandboxPolicy, WrappedCommand } from '@openwork/core';

/** How long a passed self-check is believed without running it again. */
export const REMEMBERED_CHECK_MS = 60 * 60 * 1000;

/** The file in the OpenWork home that remembers the last passed bubblewrap self-check. */
export function rememberedCheckFile(home: string): string {
  return join(home, 'sandbox-check.json');
}

/** A record is one line of JSON: anything much larger is not one. */
const MAXIMUM_RECORD_BYTES = 64 * 1024;

/** Kernel settings that decide whether unprivileged bwrap can make its namespaces. */
const NAMESPACE_SETTINGS = [
  '/proc/sys/kernel/unprivileged_userns_clone',
  '/proc/sys/user/max_user_namespaces',
  '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
];

/**
 * The bubblewrap backend with its self-check remembered for one hour (docs/decisions/0063-cli-remembered-sandbox-check.md; the check — a
 * real bwrap run, §3.4 — was the largest single cost of `openwork call`, about 50 ms in a new
 * process). Steps:
 * 1. Only a bubblewrap backend is remembered; any other backend checks every time.
 * 2. The key is everything the result depends on that can be read cheaply: bwrap's real path and
 *    its file identity (device, inode, size, mode, owner, times), the kernel release and build,
 *    the user and group, the namespace settings in /proc/sys, the Node version and the sandbox
 *    package's own file. Any difference — another bwrap on PATH, an upgrade, a changed sysctl —
 *    runs the check again.
 * 3. Only a pass is remembered, so an unavailable sandbox is re-checked (and its reason shown
 *    live) every time, and fixing it takes effect at once.
 * 4. The file lives in the OpenWork home, which no tool and no sandboxed command may write
 *    (architecture §3.2); a file that cannot be read, parsed or matched is ignored.
 * A remembered pass never lets a command run outside the sandbox: bash still runs every command
 * under bwrap, so a machine that lost bwrap within the hour fails closed (the runner's failure is
 * reported as such). `openwork doctor` always runs the check itself.
 */
export class RememberedSandboxCheck implements SandboxBackend {
  readonly #backend: SandboxBackend;
  readonly #file: string;
  readonly #now: () => number;

  readonly #warn: (text: string) => void;

  constructor(backend: SandboxBackend, file: string, now: () => number = Date.now, warn: (text: string) => void = (text) => process.stderr.write(`${text}\n`)) {
    this.#backend = backend;
    this.#file = file;
    this.#now = now;
    this.#warn = warn;
  }

  get kind(): SandboxBackend['kind'] {
    return this.#backend.kind;
  }

  async selfCheck(): Promise<SandboxAvailability> {
    const key = await checkKey(this.#backend).catch(() => undefined);
    if (key !== undefined && (await this.#remembered(key))) return { available: true };
    const availability = await this.#backend.selfCheck();
    if (key !== undefined) {
      if (availability.available) await this.#remember(key).catch(() => undefined);
      else await rm(this.#file, { force: true }).catch(() => undefined);
    }
    return availability;
  }

  wrap(command: SandboxCommand, policy: SandboxPolicy): WrappedCommand {
    return this.#backend.wrap(command, policy);
  }

  commandEnvironment(policy: SandboxPolicy): Readonly<Record<string, string>> {
    return this.#backend.commandEnvironment?.(policy) ?? {};
  }

  /**
   * Whether the record holds a pass for `key` younger than an hour. Read without following a link
   * and without waiting (`O_NOFOLLOW | O_NONBLOCK`: a FIFO planted at the name cannot hang every
   * start-up); only a regular file of ours, of a record's size, that parses as a record counts.
   * Anything else at the name is removed — said on stderr — and the real check runs (and writes a
   * record again): a forged or damaged record can only cost one check, never make the sandbox
   * unavailable or skip a check for another key.
   */
  async #remembered(key: string): Promise<boolean> {
    let text: string;
    try {
      const handle = await open(this.#file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      try {
        const stats = await handle.stat();
        if (!stats.isFile() || stats.uid !== (process.getuid?.() ?? stats.uid) || stats.size > MAXIMUM_RECORD_BYTES) {
          this.#repair(`it is not a record of this user (${stats.isFile() ? `${stats.size} bytes, uid ${stats.uid}` : 'not a regular file'})`);
          return false;
        }
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') this.#repair(`it cannot be read (${String(code ?? error)})`);
      return false;
    }
    let stored: { key?: unknown; passedAt?: unknown };
    try {
      stored = JSON.parse(text) as { key?: unknown; passedAt?: unknown };
      if (typeof stored !== 'object' || stored === null || typeof stored.key !== 'string' || typeof stored.passedAt !== 'number') throw new Error('not a record');
    } catch {
      this.#repair('it does not parse as a record');
      return false;
    }
    const age = this.#now() - stored.passedAt;
    return stored.key === key && Number.isFinite(age) && age >= 0 && age < REMEMBERED_CHECK_MS;
  }

  /** Removes what is at the record's name (a link or a FIFO itself, never its target) and says so. */
  #repair(why: string): void {
    this.#warn(`openwork: ignored ${this.#file}: ${why}; it was removed and the sandbox self-check runs again`);
    rmSync(this.#file, { force: true, recursive: true });
  }

  /**
   * Written in place, never through a link (`O_NOFOLLOW`). No temp file, so a process killed
   * mid-write leaves nothing beside it; a torn or interleaved file does not parse, and a file
   * that does not parse only means the next process checks again.
   */
  async #remember(key: string): Promise<void> {
    const { O_CREAT, O_NOFOLLOW, O_NONBLOCK, O_TRUNC, O_WRONLY } = constants;
    const handle = await open(this.#file, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK, 0o600);
    try {
      await handle.writeFile(`${JSON.stringify({ key, passedAt: this.#now() })}\n`);
    } finally {
      await handle.close();
    }
  }
}

/** Step 2's key, or `undefined` for a backend that is not remembered. */
async function checkKey(backend: SandboxBackend): Promise<string | undefined> {
  const bwrapPath = (backend as { bwrapPath?: unknown }).bwrapPath;
  if (backend.kind !== 'bubblewrap' || typeof bwrapPath !== 'string') return undefined;
  const bwrap = await stat(bwrapPath, { bigint: true });
  const sandboxModule = await stat(fileURLToPath((await import('@openwork/core')).SANDBOX_MODULE_URL), { bigint: true });
  const settings = await Promise.all(NAMESPACE_SETTINGS.map((file) => readFile(file, 'utf8').then((text) => text.trim(), () => '-')));
  return JSON.stringify([
    bwrapPath,
    [bwrap.dev, bwrap.ino, bwrap.size, bwrap.mode, bwrap.uid, bwrap.mtimeNs, bwrap.ctimeNs].map(String),
    release(),
    version(),
    process.getuid?.(),
    process.getgid?.(),
    settings,
    process.version,
    [sandboxModule.ino, sandboxModule.size, sandboxModule.mtimeNs].map(String),
  ]);
}
