import { DATABASE_OPTION, JSON_OPTION } from '../cli/common-options.js';
import type { CommandSpec } from '../cli/command-spec.js';
import { cliVersion } from '../cli/cli-version.js';
import { optionValue } from '../cli/parse-arguments.js';
import { UsageError } from '../cli/usage-error.js';
import { formatTable } from '../output/format-table.js';
import { openRuntime, sqliteFile } from '../runtime/open-runtime.js';
import { allowedSockets } from '../runtime/allowed-sockets.js';
import { openworkHome } from '../runtime/openwork-home.js';
import { storeLocation } from '../runtime/store-location.js';

/**
 * Architecture §3.7, bubblewrap: abstract sockets (and signals) are out of reach where the
 * Landlock scope applies; where it cannot, say so and why, since they are then reachable.
 */
async function abstractSocketRule(home: string): Promise<{ readonly text: string; readonly healthy: boolean }> {
  const { landlockScope, SandboxUnavailableError } = await import('@openwork/core'); // loaded on use (start-up)
  try {
    const scope = landlockScope(home);
    return scope.scoped
      ? { text: `abstract sockets and signals of the host unreachable too (Landlock ABI ${scope.abi} scope)`, healthy: true }
      : { text: `abstract sockets of the host REACHABLE with network allow (no Landlock scope: ${scope.reason})`, healthy: true };
  } catch (error) {
    // The helper was changed and cannot be rewritten: bash refuses to run until it is fixed.
    return { text: `bash refuses to run: ${SandboxUnavailableError.isInstance(error) ? error.reason : String(error)}`, healthy: false };
  }
}

/** Architecture §3.7: what a sandboxed command can reach over UNIX sockets, in one line. */
async function socketRule(kind: string, allowed: readonly string[], home: string): Promise<{ readonly text: string; readonly healthy: boolean }> {
  const listed = `allowed: ${allowed.length === 0 ? 'none (set OPENWORK_ALLOW_SOCKETS)' : allowed.join(', ')}`;
  if (kind === 'seatbelt') return { text: `host UNIX sockets unreachable from sandboxed commands (Seatbelt denies connecting to any); ${listed}`, healthy: true };
  if (kind !== 'bubblewrap') return { text: `no sandbox: bash does not run; ${listed}`, healthy: true };
  const abstract = await abstractSocketRule(home);
  return { text: `host UNIX sockets unreachable from sandboxed commands (every listening socket masked; ${abstract.text}); ${listed}`, healthy: abstract.healthy };
}

/** Whether commands reach the network, and how `--network none` takes it away (docs/decisions/0101-network-switch.md). */
function networkRow(kind: string): string {
  const off = kind === 'bubblewrap' ? 'bubblewrap --unshare-net: only their own loopback' : kind === 'seatbelt' ? 'Seatbelt profile without network rules' : 'no sandbox: bash does not run';
  return `allow by default: commands reach the network as unsandboxed; --network none (call, session, mcp) gives them none (${off})`;
}

/** Which variables of this environment commands get besides the six of §4 (docs/decisions/0102). */
async function environmentRow(environment: NodeJS.ProcessEnv): Promise<string> {
  const { localEnvironment, LOCAL_ENVIRONMENT_KEYS } = await import('@openwork/builtins');
  const { passedEnvironmentNames } = await import('../runtime/open-runtime.js');
  const passed = Object.keys(localEnvironment(environment, { pass: passedEnvironmentNames(environment) })).filter((name) => !(LOCAL_ENVIRONMENT_KEYS as readonly string[]).includes(name));
  const listed = passed.length === 0 ? 'none set here' : passed.sort().join(', ');
  return `commands get PATH, HOME, SHELL, LANG, LC_ALL, TMPDIR, proxy and CA settings and npm_config_* (never credentials); passed from here: ${listed}; OPENWORK_PASS_ENV adds names`;
}

/**
 * Where a staged command's writes wait until they are judged (architecture §3.11): with a workspace
 * outside HOME (the OpenWork home's disk) and with HOME as the workspace (a private folder outside it).
 */
async function stagingRule(home: string, environment: Readonly<Record<string, string | undefined>>): Promise<string> {
  const { describeStagingPlace } = await import('@openwork/core'); // loaded on use (start-up)
  const userHome = environment['HOME'] ?? '/';
  return `a workspace elsewhere: ${describeStagingPlace(home, [])}; HOME as the workspace: ${describeStagingPlace(home, [userHome])}`;
}

/**
 * `openwork doctor` (architecture §7): the platform, the sandbox backend with its self-check result
 * and reason (§3.4), whether background bash can get a terminal (`script`, for background bash), the OpenWork
 * home, the store, and whether PostgreSQL answers when configured.
 * Exit 1 when the sandbox is unavailable or the store cannot be opened.
 */
export const doctorCommand: CommandSpec = {
  name: 'doctor',
  summary: 'report the sandbox backend, the OpenWork home and the store',
  usage: 'openwork doctor [--json] [--database URL]',
  details: [
    'Runs the sandbox self-check (bash runs nothing when it fails) and opens the session store.',
    'Also whether grep\'s engine (the re2 native addon) loads on this Node.',
    'Exit status 1 when the sandbox is unavailable, grep\'s engine does not load, or the store cannot be opened.',
    '  --json            the report as JSON',
    '  --database URL    PostgreSQL store to check (default: OPENWORK_DATABASE_URL)',
  ],
  options: [JSON_OPTION, DATABASE_OPTION],
  async run(parsed, io) {
    if (parsed.positionals.length > 0) throw new UsageError(`openwork doctor: unexpected argument ${JSON.stringify(parsed.positionals[0])}`);
    const database = optionValue(parsed, 'database');
    const location = storeLocation(database, io.environment, sqliteFile(io.environment));
    const report: Record<string, string> = {
      openwork: cliVersion(),
      platform: `${process.platform} ${process.arch}, Node ${process.versions.node}`,
      home: openworkHome(io.environment),
      store: location.kind === 'sqlite' ? `SQLite ${location.path}` : `PostgreSQL ${location.display}`,
    };
    let healthy = true;
    try {
      const opened = await openRuntime({ environment: io.environment, database, liveSandboxCheck: true });
      try {
        const { kind, availability } = opened.runtime.sandbox;
        report['sandbox'] = availability.available ? `${kind}: available (self-check passed)` : `${kind}: unavailable — ${availability.reason}`;
        // Where writes go: staged and judged by rule (bubblewrap), or straight to the host under the kernel's rules (Seatbelt).
        if (availability.available && kind === 'bubblewrap') report['writes'] = 'staged: each command writes into an overlay; every path it changed is judged by rule (any depth) before it reaches the host';
        if (kind === 'bubblewrap') report['staging'] = await stagingRule(openworkHome(io.environment), io.environment);
        if (availability.available && kind === 'seatbelt') report['writes'] = 'direct: the Seatbelt profile denies protected kinds of files at any depth (regex rules)';
        const sockets = await socketRule(kind, allowedSockets(io.environment), openworkHome(io.environment));
        report['sockets'] = sockets.text;
        report['network'] = networkRow(kind);
        report['environment'] = await environmentRow(io.environment);
        report['escalation'] = opened.runtime.escalationAvailable ? 'offered (sandboxPermissions in the tool schemas)' : 'not offered';
        // Background bash: whether background tasks can get a pseudo-terminal (tty: true); not a failure when not.
        const { findTerminalProgram, searchEngineStatus } = await import('@openwork/builtins');
        // grep's engine is a native addon built for one Node ABI: say here whether it loads (and why not).
        const engine = searchEngineStatus();
        report['grep'] = engine.available ? engine.detail : `unavailable — ${engine.reason}`;
        const terminal = await findTerminalProgram();
        report['tty'] = terminal.available ? `${terminal.path} (${terminal.flavour}): bash tty: true works` : `unavailable — ${terminal.reason}; bash tty: true is refused, other background tasks work`;
        healthy = availability.available && sockets.healthy && engine.available;
        if (location.kind === 'postgres') report['postgres'] = 'reachable';
        else report['store'] += ' (opened)';
      } finally {
        await opened.close();
      }
    } catch (error) {
      healthy = false;
      const reason = error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error);
      if (location.kind === 'postgres') report['postgres'] = `not reachable — ${reason}`;
      else report['store'] += ` (cannot open: ${reason})`;
    }
    if (parsed.flags.has('json')) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else io.stdout.write(`${formatTable(['CHECK', 'RESULT'], Object.entries(report))}\n`);
    return healthy ? 0 : 1;
  },
};
