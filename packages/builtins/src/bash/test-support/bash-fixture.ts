import { NodeProcessBackend } from '@openwork/process-backend';
import { BubblewrapBackend, landlockScope } from '@openwork/sandbox';
import { createFixture, type BuiltinsFixture, type FixtureOptions } from '../../test-support/builtins-fixture.js';
import { RecordingProcessBackend, RecordingSandboxBackend } from './recording-backends.js';

/** A session on the real bubblewrap sandbox whose wraps and spawns are recorded. */
export interface BashFixture extends BuiltinsFixture {
  readonly sandbox: RecordingSandboxBackend;
  readonly processes: RecordingProcessBackend;
}

/** Options of `createBashFixture`: those of `createFixture`, plus a way to tamper with the wrapped argv. */
export interface BashFixtureOptions extends Omit<FixtureOptions, 'sandbox' | 'processBackend'> {
  readonly tamper?: (argv: readonly string[]) => readonly string[];
  readonly bwrapPath?: string;
}

/**
 * `createFixture` on the real bubblewrap sandbox (the escalation parameters come from its
 * self-check). The suites need bwrap: if it cannot run here they FAIL with the self-check's
 * reason instead of skipping.
 */
export async function createBashFixture(options: BashFixtureOptions = {}): Promise<BashFixture> {
  const { tamper, bwrapPath, ...rest } = options;
  const sandbox = new RecordingSandboxBackend(new BubblewrapBackend(bwrapPath === undefined ? {} : { bwrapPath }), tamper);
  const processes = new RecordingProcessBackend(new NodeProcessBackend());
  const fixture = await createFixture({ escalationAvailable: 'self-check', ...rest, sandbox, processBackend: processes });
  // The Landlock helper is installed once per OpenWork home (architecture §3.7), as after any earlier
  // call: tests that compare the home before and after a call see only what the call did.
  landlockScope(fixture.openworkHome);
  return { ...fixture, sandbox, processes };
}

/** For `beforeAll`: fail the suite with bwrap's own words when it cannot run here. */
export async function requireBubblewrap(): Promise<void> {
  const availability = await new BubblewrapBackend().selfCheck();
  if (!availability.available) throw new Error(`the bash tests need bubblewrap: ${availability.reason}`);
}
