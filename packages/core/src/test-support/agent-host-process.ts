import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const WORKER = join(dirname(fileURLToPath(import.meta.url)), 'agent-host-worker.mjs');

/** What `agent-host-worker.mjs` is told. */
export interface AgentHostCommand {
  readonly store: 'sqlite' | 'postgres';
  /** The SQLite file, or the PostgreSQL connection string. */
  readonly location: string;
  readonly schema?: string;
  readonly mode: 'delegate' | 'serve';
  readonly host: string;
  readonly leaseMs: number;
  readonly openworkHome: string;
  readonly home: string;
  readonly workspace: string;
  readonly parentId?: string;
  readonly children?: number;
}

export interface AgentHostEvent {
  readonly event: string;
  readonly [key: string]: unknown;
}

/** A runtime in its own Node process (the built `@openwork/core`), and the JSON events it prints. */
export class AgentHostProcess {
  readonly events: AgentHostEvent[] = [];
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #exited: Promise<void>;
  #stderr = '';
  #listeners = new Set<() => void>();

  constructor(command: AgentHostCommand) {
    this.#child = spawn(process.execPath, [WORKER, JSON.stringify(command)], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, HOME: command.home } });
    this.#exited = new Promise((resolve) => this.#child.once('exit', () => resolve()));
    this.#child.stderr.on('data', (chunk: Buffer) => {
      this.#stderr += chunk.toString();
    });
    createInterface({ input: this.#child.stdout }).on('line', (line) => {
      try {
        this.events.push(JSON.parse(line) as AgentHostEvent);
      } catch {
        this.#stderr += `${line}\n`;
      }
      for (const listener of this.#listeners) listener();
    });
  }

  /** Resolves when `count` events named `event` have been printed (rejects if the process exits first). */
  async waitFor(event: string, count = 1): Promise<AgentHostEvent[]> {
    const matching = (): AgentHostEvent[] => this.events.filter((item) => item.event === event);
    if (matching().length >= count) return matching();
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (matching().length < count) return;
        this.#listeners.delete(check);
        resolve(matching());
      };
      this.#listeners.add(check);
      void this.#exited.then(() => {
        if (matching().length < count) reject(new Error(`the host exited before printing ${event}: ${this.#stderr}`));
      });
    });
  }

  /** kill -9: the host stops at once, holding its leases. */
  async kill(): Promise<void> {
    this.#child.kill('SIGKILL');
    await this.#exited;
  }

  /** A graceful stop: the runtime closes and gives its leases up. */
  async stop(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    this.#child.kill('SIGTERM');
    await this.#exited;
  }
}
