import { mkdir, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { localEnvironment } from '@openwork/builtins';
import { NodeFileSystem } from '@openwork/fs-backend';
import { NodeProcessBackend } from '@openwork/process-backend';
import { selectSandboxBackend, type SandboxAvailability, type SandboxBackend } from '@openwork/sandbox';
import { CoreError } from '../errors/core-error.js';
import { removeStaleSpillDirectories } from '../spill/remove-stale-spill-directories.js';
import { CheckedSandboxBackend } from './checked-sandbox-backend.js';
import { CREATE_RUNTIME_KEY, Runtime } from './runtime.js';
import type { RuntimeOptions } from './runtime-options.js';
import type { RuntimeServices } from './runtime-services.js';

/**
 * Starts the OpenWork session runtime (architecture §4):
 * 1. creates the OpenWork home if it is missing;
 * 2. deletes spill directories untouched for 7 days (§8.2);
 * 3. picks the sandbox backend (the platform's unless given) and runs its self-check once: it
 *    decides for every session whether tools offer `sandboxPermissions` (§7.5) and whether bash
 *    can run (acceptance 10d).
 */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  checkOptions(options);
  await mkdir(options.home, { recursive: true });
  const home = await realpath(options.home);
  const removedSpillDirectories = await removeStaleSpillDirectories(join(home, 'spill'));
  const backend = options.sandboxBackend ?? selectSandboxBackend();
  const availability = await selfCheck(backend);
  const homeDirectory = options.homeDirectory ?? process.env['HOME'] ?? homedir();
  const close = new AbortController();
  const services: RuntimeServices = Object.freeze({
    store: options.store,
    home,
    homeDirectory,
    skillRoots: Object.freeze([...(options.skillRoots ?? [])]),
    sandbox: new CheckedSandboxBackend(backend, availability),
    escalationAvailable: availability.available,
    environment: Object.freeze(options.environment ?? { ...localEnvironment(process.env, { pass: options.passEnvironment ?? [] }), HOME: homeDirectory }),
    filesystem: options.filesystem ?? new NodeFileSystem(),
    processBackend: options.processBackend ?? new NodeProcessBackend(),
    policyOptions: Object.freeze({ ...options.sandboxPolicy, ...(options.network === undefined ? {} : { network: options.network }) }),
    approver: options.approver,
    closeSignal: close.signal,
    checkOpen: () => {
      if (close.signal.aborted) throw new CoreError('runtime_closed', 'The runtime was closed; create a new one with createRuntime.');
    },
  });
  return new Runtime(CREATE_RUNTIME_KEY, { services, close, removedSpillDirectories, agentModels: options.agentModels, agents: Object.freeze({ ...options.agents }) });
}

/** §3.4: a failing or throwing self-check means unavailable, never a crash. */
async function selfCheck(backend: SandboxBackend): Promise<SandboxAvailability> {
  try {
    return await backend.selfCheck();
  } catch (error) {
    return { available: false, reason: `the sandbox self-check failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function checkOptions(options: RuntimeOptions): void {
  if (typeof options !== 'object' || options === null) throw new CoreError('invalid_argument', 'createRuntime needs { home, store }.');
  if (typeof options.home !== 'string' || !options.home.startsWith('/')) {
    throw new CoreError('invalid_argument', `createRuntime: home must be the absolute path of the OpenWork home (e.g. ~/.openwork), got ${JSON.stringify(options.home)}.`);
  }
  const store = options.store as unknown as Record<string, unknown> | undefined;
  if (typeof store !== 'object' || store === null || typeof store['appendMessage'] !== 'function' || typeof store['loadMessages'] !== 'function') {
    throw new CoreError('invalid_argument', 'createRuntime: store must be a SessionStore (for example SqliteSessionStore from @openwork/store-sqlite, or InMemorySessionStore).');
  }
  if (options.agentModels !== undefined && typeof options.agentModels !== 'function') {
    throw new CoreError('invalid_argument', 'createRuntime: agentModels must be a function (role) => LanguageModel that gives child agents their model.');
  }
  checkAgentOptions(options.agents);
  try {
    localEnvironment({}, { pass: options.passEnvironment ?? [] });
  } catch (error) {
    throw new CoreError('invalid_argument', `createRuntime: passEnvironment: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (options.network !== undefined && options.network !== 'allow' && options.network !== 'none') {
    throw new CoreError('invalid_argument', `createRuntime: network must be 'allow' or 'none', got ${JSON.stringify(options.network)}.`);
  }
  if (options.network !== undefined && options.sandboxPolicy?.network !== undefined && options.sandboxPolicy.network !== options.network) {
    throw new CoreError('invalid_argument', `createRuntime: network is ${JSON.stringify(options.network)} but sandboxPolicy.network is ${JSON.stringify(options.sandboxPolicy.network)}; give one of them.`);
  }
  if (options.homeDirectory !== undefined && (typeof options.homeDirectory !== 'string' || !options.homeDirectory.startsWith('/'))) {
    throw new CoreError('invalid_argument', `createRuntime: homeDirectory must be an absolute path, got ${JSON.stringify(options.homeDirectory)}.`);
  }
}

function checkAgentOptions(agents: RuntimeOptions['agents']): void {
  if (agents === undefined) return;
  if (typeof agents !== 'object' || agents === null) throw new CoreError('invalid_argument', 'createRuntime: agents must be an object of sub-agent options.');
  const whole = (name: 'maxRunning' | 'leaseMs' | 'maxSteps' | 'maxAttempts', min: number, max: number): void => {
    const value = agents[name];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < min || value > max)) {
      throw new CoreError('invalid_argument', `createRuntime: agents.${name} must be a whole number from ${min} to ${max}, got ${String(value)}.`);
    }
  };
  whole('maxRunning', 1, 64);
  whole('leaseMs', 100, 3_600_000);
  whole('maxSteps', 1, 1000);
  whole('maxAttempts', 1, 100);
  if (agents.hostId !== undefined && (typeof agents.hostId !== 'string' || agents.hostId.length === 0 || agents.hostId.length > 200)) {
    throw new CoreError('invalid_argument', 'createRuntime: agents.hostId must be a string of 1–200 characters.');
  }
}
