import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { OPENWORK_BIN, type CliSandbox } from './cli-sandbox.js';

/** One `ToolResult` line of `openwork session`. */
export interface SessionResultLine {
  readonly status: string;
  readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string }>;
  readonly artifacts: ReadonlyArray<Record<string, unknown>>;
  readonly error: { readonly code: string; readonly message: string } | null;
}

/** A running `openwork session`: one call at a time, each answered by one stdout line. */
export interface SessionProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** The id it printed on stderr at start. */
  sessionId(): Promise<string>;
  call(tool: string, input: unknown): Promise<SessionResultLine>;
  stderr(): string;
  /** Ends stdin and waits for the exit status. */
  end(): Promise<number | null>;
}

/** Starts `openwork session <args>` on the sandbox's temp homes. */
export function startSession(sandbox: CliSandbox, args: readonly string[] = ['--workspace', sandbox.workspace]): SessionProcess {
  const child = spawn(process.execPath, [OPENWORK_BIN, 'session', ...args], { env: sandbox.environment, cwd: sandbox.workspace, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  let announced: (id: string) => void = () => undefined;
  const id = new Promise<string>((resolve) => (announced = resolve));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    const found = /^openwork session (\S+)$/m.exec(stderr);
    if (found?.[1] !== undefined) announced(found[1]);
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    child,
    sessionId: () => id,
    async call(tool, input) {
      child.stdin.write(`${JSON.stringify({ tool, input })}\n`);
      const next = await lines.next();
      if (next.done === true) throw new Error(`openwork session ended: ${stderr}`);
      return JSON.parse(next.value) as SessionResultLine;
    },
    stderr: () => stderr,
    async end() {
      child.stdin.end();
      return exited;
    },
  };
}

/** The model-visible text of a result line. */
export function lineText(result: SessionResultLine): string {
  return result.content.map((part) => part.text ?? '').join('\n');
}

/** The task id of a bash result with `runInBackground: true`. */
export function backgroundTaskId(result: { readonly artifacts?: ReadonlyArray<Record<string, unknown>> } | undefined): string {
  const artifact = result?.artifacts?.find((candidate) => candidate['kind'] === 'background_task');
  if (artifact === undefined) throw new Error(`no background_task artifact in ${JSON.stringify(result)}`);
  return String(artifact['taskId']);
}

/** PIDs of living processes whose command line contains `token` (read from /proc). */
export function processesWith(token: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const commandLine = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      const state = /^State:\s+(\S)/m.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1];
      if (commandLine.includes(token) && state !== 'Z') found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Polls `check` every 50 ms, at most `attempts` times (no wall-clock assertion). */
export async function eventually(check: () => boolean | Promise<boolean>, attempts = 200): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

/** The process group of each living `pid` (field 5 of /proc/<pid>/stat). */
export function processGroupsOf(pids: readonly number[]): number[] {
  const groups = new Set<number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      groups.add(Number(fields[2]));
    } catch {
      // gone meanwhile
    }
  }
  return [...groups];
}

/** Living (not zombie) processes whose process group is one of `groups`. */
export function membersOfGroups(groups: readonly number[]): number[] {
  const members: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z' && groups.includes(Number(fields[2]))) members.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return members;
}

/** Every entry under `folder` as relative paths, sorted (what a leftover placeholder would add); `undefined` if it changed while listed. */
export function folderTree(folder: string, prefix = ''): string[] | undefined {
  const found: string[] = [];
  try {
    for (const entry of readdirSync(`${folder}`, { withFileTypes: true })) {
      found.push(`${prefix}${entry.name}${entry.isDirectory() ? '/' : ''}`);
      if (entry.isDirectory()) {
        const inner = folderTree(`${folder}/${entry.name}`, `${prefix}${entry.name}/`);
        if (inner === undefined) return undefined;
        found.push(...inner);
      }
    }
  } catch {
    return undefined;
  }
  return found.sort();
}
