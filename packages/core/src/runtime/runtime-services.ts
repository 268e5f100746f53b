import type { AsyncFileSystem } from '@openwork/fs-backend';
import type { ProcessBackend } from '@openwork/process-backend';
import type { SessionStore } from '@openwork/session-store';
import type { Approver } from '../call/approval.js';
import type { CheckedSandboxBackend } from './checked-sandbox-backend.js';
import type { RuntimePolicyOptions } from './runtime-options.js';

/** @internal What every session of a runtime shares. */
export interface RuntimeServices {
  readonly store: SessionStore;
  /** Canonical OpenWork home. */
  readonly home: string;
  readonly homeDirectory: string;
  readonly skillRoots: readonly string[];
  readonly sandbox: CheckedSandboxBackend;
  readonly escalationAvailable: boolean;
  readonly environment: Readonly<Record<string, string>>;
  readonly filesystem: AsyncFileSystem;
  readonly processBackend: ProcessBackend;
  readonly policyOptions: RuntimePolicyOptions;
  readonly approver: Approver | undefined;
  /** Aborted when the runtime closes: cancels every turn and call. */
  readonly closeSignal: AbortSignal;
  /** Throws `runtime_closed` once the runtime is closed. */
  checkOpen(): void;
}
