import { AGENT_OPTION, DATABASE_OPTION, MODE_OPTION, NETWORK_OPTION, SESSION_OPTION_HELP, WORKSPACE_OPTION } from '../cli/common-options.js';
import type { CommandSpec } from '../cli/command-spec.js';
import { optionValue } from '../cli/parse-arguments.js';
import { UsageError } from '../cli/usage-error.js';
import { cliVersion } from '../cli/cli-version.js';
import { openRuntime } from '../runtime/open-runtime.js';
import { workspaceRootsOption } from '../runtime/workspace-roots.js';

/** `openwork mcp` (architecture §7): the toolset for any MCP client, over stdio. */
export const mcpCommand: CommandSpec = {
  name: 'mcp',
  summary: 'serve the tools to an MCP client over stdio',
  usage: 'openwork mcp [--workspace DIR] [--mode M] [--network allow|none] [--agent default|explorer] [--approval-timeout SECONDS]',
  details: [
    'Speaks MCP on stdin/stdout (logs go to stderr). The workspace follows the client\'s roots when',
    'it offers them; --workspace is the fallback. Approvals use MCP elicitation; a client without it',
    'gets escalations and dangerous commands refused. The session is stored: openwork changes and',
    'openwork undo work on what the client changed. A message over 8 MiB is answered with a',
    'JSON-RPC error and not read; a client root of / is refused.',
    ...SESSION_OPTION_HELP,
    '  --agent ROLE      default | explorer (read-only tools)',
    '  --approval-timeout SECONDS  how long an approval waits for the person (default 600); the client',
    '                    gets progress keep-alives meanwhile when it asked for progress',
  ],
  options: [WORKSPACE_OPTION, MODE_OPTION, NETWORK_OPTION, AGENT_OPTION, DATABASE_OPTION, { name: 'approval-timeout', kind: 'value' }],
  async run(parsed, io) {
    if (parsed.positionals.length > 0) throw new UsageError(`openwork mcp: unexpected argument ${JSON.stringify(parsed.positionals[0])}; see openwork mcp --help`);
    const fallbackRoots = workspaceRootsOption(parsed);
    const approvalTimeout = optionValue(parsed, 'approval-timeout');
    if (approvalTimeout !== undefined && !/^[1-9]\d{0,5}$/.test(approvalTimeout)) {
      throw new UsageError(`openwork mcp: --approval-timeout takes a whole number of seconds from 1 to 999999, not ${JSON.stringify(approvalTimeout)}`);
    }
    const network = optionValue(parsed, 'network') as 'allow' | 'none' | undefined;
    const opened = await openRuntime({ environment: io.environment, database: optionValue(parsed, 'database'), network });
    try {
      const mode = optionValue(parsed, 'mode') as 'read-only' | 'workspace-write' | 'full-access' | undefined;
      const role = optionValue(parsed, 'agent') as 'default' | 'explorer' | undefined;
      const session = await opened.runtime.createSession({
        workspaceRoots: fallbackRoots,
        ...(mode === undefined ? {} : { mode }),
        ...(role === undefined ? {} : { role }),
      });
      io.stderr.write(`openwork mcp: session ${session.id}, sandbox ${opened.runtime.sandbox.kind} (${opened.runtime.sandbox.availability.available ? 'available' : 'unavailable'}), network ${opened.runtime.network}\n`);
      const { serveMcp } = await import('../mcp/serve-mcp.js');
      await serveMcp({
        opened,
        session,
        fallbackRoots,
        version: cliVersion(),
        log: (line) => void io.stderr.write(`${line}\n`),
        ...(approvalTimeout === undefined ? {} : { approvalTimeoutMs: Number(approvalTimeout) * 1000 }),
      });
      return 0;
    } finally {
      await opened.close();
    }
  },
};
