import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import type { Writable } from 'node:stream';
import type { WrappedCommand } from '../../backend/sandbox-backend.js';
import { spawnSandboxed } from './run-wrapped.js';

/**
 * What the probe does to one path. `source` is the file renamed over `path`; `write-through`
 * writes through a dangling symbolic link, which creates `target` if the kernel lets it.
 */
export type ProbeOperation = 'read' | 'list' | 'append' | 'create' | 'write-through' | 'rename-over' | 'delete';

export interface ProbeStep {
  readonly operation: ProbeOperation;
  /** The path as a process names it (may go through symbolic links). */
  readonly path: string;
  readonly marker?: string;
  readonly source?: string;
  /** `write-through`: where the content lands on the host (the end of the link chain). */
  readonly target?: string;
  /** Devices: no host content to compare, only whether the kernel let the operation through. */
  readonly device?: boolean;
}

export interface ProbeAnswer {
  readonly step: ProbeStep;
  /** What the probe itself saw: success, or the errno code. */
  readonly probeOk: boolean;
  readonly probeCode: string | undefined;
  /** Whether the operation really happened, judged from the host file system right after it. */
  readonly kernelAllowed: boolean;
}

/**
 * The probe, run by node inside the sandbox: one operation per step, one JSON line per result,
 * then it blocks until the host has inspected the file system and answers with a newline. So the
 * host sees the effect of every single operation, even when a later step deletes the file.
 */
const probeSource = String.raw`
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const steps = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'));
const one = Buffer.alloc(1);
const pause = new Int32Array(new SharedArrayBuffer(4));
function waitForHost() {
  for (;;) {
    let count;
    try { count = fs.readSync(0, one, 0, 1, null); }
    catch (error) { if (error.code === 'EAGAIN') { Atomics.wait(pause, 0, 0, 2); continue; } throw error; }
    if (count === 0) process.exit(3);
    if (one[0] === 10) return;
  }
}
function digest(file) {
  const fd = fs.openSync(file, 'r');
  try {
    if (!fs.fstatSync(fd).isFile()) { fs.readSync(fd, Buffer.alloc(16), 0, 16, null); return 'device'; }
    return crypto.createHash('sha256').update(fs.readFileSync(fd)).digest('hex');
  } finally { fs.closeSync(fd); }
}
for (const step of steps) {
  const result = {};
  try {
    switch (step.operation) {
      case 'read': result.digest = digest(step.path); break;
      case 'list': result.names = fs.readdirSync(step.path).sort(); break;
      case 'append': fs.appendFileSync(step.path, step.marker); break;
      case 'create': fs.mkdirSync(path.dirname(step.path), { recursive: true }); fs.writeFileSync(step.path, step.marker); break;
      case 'write-through': fs.writeFileSync(step.path, step.marker); break;
      case 'rename-over': fs.renameSync(step.source, step.path); break;
      case 'delete': fs.unlinkSync(step.path); break;
    }
    result.ok = true;
  } catch (error) {
    result.ok = false;
    result.code = error.code;
  }
  process.stdout.write(JSON.stringify(result) + '\n');
  waitForHost();
}
`;

function hostDigest(file: string): string | undefined {
  try {
    return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  } catch {
    return undefined;
  }
}

function hostContent(file: string): string | undefined {
  try {
    return fs.lstatSync(file).isFile() ? fs.readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

function hostExists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** Host-side judgement of one step, made while the probe waits (see `probeSource`). */
function judge(step: ProbeStep, result: { ok: boolean; digest?: string; names?: string[] }): boolean {
  if (step.device === true) return result.ok;
  switch (step.operation) {
    case 'read':
      return result.ok && result.digest === hostDigest(step.path);
    case 'list': {
      if (!result.ok) return false;
      const hostNames = fs.readdirSync(step.path).sort();
      return JSON.stringify(hostNames) === JSON.stringify(result.names);
    }
    case 'append': {
      let real: string;
      try {
        real = fs.realpathSync(step.path);
      } catch {
        return false;
      }
      return hostContent(real)?.endsWith(step.marker as string) === true;
    }
    case 'create': {
      // Created through links: look where the kernel would have put it.
      const parent = path.dirname(step.path);
      const real = hostExists(parent) ? path.join(fs.realpathSync(parent), path.basename(step.path)) : step.path;
      return hostContent(real) === step.marker;
    }
    case 'write-through':
      return hostContent(step.target as string) === step.marker;
    case 'rename-over':
      return hostContent(step.path) === `source of ${step.path}\n` && !hostExists(step.source as string);
    case 'delete':
      return !hostExists(step.path);
  }
}

/** Create the files `rename-over` steps move, next to their targets, before the sandbox starts. */
export function prepareRenameSources(steps: readonly ProbeStep[]): void {
  for (const step of steps) {
    if (step.operation === 'rename-over') fs.writeFileSync(step.source as string, `source of ${step.path}\n`);
  }
}

/**
 * Run `steps` in ONE sandbox (the wrapped argv must end with the probe command built by
 * `probeCommand`), judging each on the host. Always releases the wrapped command.
 */
export async function runProbe(wrapped: WrappedCommand, cwd: string, steps: readonly ProbeStep[], timeoutMs = 60_000): Promise<ProbeAnswer[]> {
  const answers: ProbeAnswer[] = [];
  try {
    const { child, closed } = spawnSandboxed(wrapped.argv, cwd, 'pipe', timeoutMs);
    const stdin = child.stdin as Writable;
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const lines = readline.createInterface({ input: child.stdout });
    for await (const line of lines) {
      const step = steps[answers.length];
      if (step === undefined) throw new Error(`probe printed more lines than steps: ${line}`);
      const result = JSON.parse(line) as { ok: boolean; code?: string; digest?: string; names?: string[] };
      answers.push({ step, probeOk: result.ok, probeCode: result.code, kernelAllowed: judge(step, result) });
      stdin.write('\n');
    }
    const [code] = await closed;
    if (code !== 0 || answers.length !== steps.length) {
      throw new Error(`probe ended with exit ${String(code)} after ${answers.length}/${steps.length} steps: ${stderr}`);
    }
    return answers;
  } finally {
    await wrapped.release();
  }
}

/** argv of the probe: node from this very installation, reading its steps from `planFile`. */
export function probeCommand(planFile: string): string[] {
  return [process.execPath, '-e', probeSource, planFile];
}
