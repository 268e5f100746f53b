import { AGENT_OPTION, DATABASE_OPTION, JSON_OPTION } from '../cli/common-options.js';
import type { CommandSpec } from '../cli/command-spec.js';
import { optionValue } from '../cli/parse-arguments.js';
import { UsageError } from '../cli/usage-error.js';
import { openRuntime } from '../runtime/open-runtime.js';

/** `openwork tools [--agent default|explorer] [--json]` (architecture §7): what the model sees. */
export const toolsCommand: CommandSpec = {
  name: 'tools',
  summary: 'list the tool definitions the model would see',
  usage: 'openwork tools [--agent default|explorer] [--json]',
  details: [
    'Prints each tool of the agent role with its risk hint and description; --json prints the',
    'definitions (id, description, inputSchema, riskHint) as the model receives them.',
    '  --agent ROLE      default (read write edit grep glob list bash bash_output bash_input bash_kill conversation_history update_plan) | explorer',
    '  --json            the definitions as JSON',
    'The sub-agent tools (agent_send, agent_await, agent_list) need a model for the child agents,',
    'which the CLI has none of: a library host offers them with createRuntime({ agentModels }).',
  ],
  options: [AGENT_OPTION, JSON_OPTION, DATABASE_OPTION],
  async run(parsed, io) {
    if (parsed.positionals.length > 0) throw new UsageError(`openwork tools: unexpected argument ${JSON.stringify(parsed.positionals[0])}; see openwork tools --help`);
    const role = (optionValue(parsed, 'agent') ?? 'default') as 'default' | 'explorer';
    const opened = await openRuntime({ environment: io.environment, database: optionValue(parsed, 'database') });
    try {
      // Definitions depend on the sandbox self-check (§7.5), so they come from a real session,
      // which is removed again at once.
      const session = await opened.runtime.createSession({ workspaceRoots: [process.cwd()], role });
      const definitions = session.definitions;
      await opened.runtime.deleteSession(session.id);
      // The sub-agent tools need a model source for children, which the CLI never has: said in
      // --help, not on every run (a CLI user cannot act on "pass agentModels to createRuntime").
      if (parsed.flags.has('json')) {
        io.stdout.write(`${JSON.stringify(definitions, null, 2)}\n`);
      } else {
        for (const definition of definitions) {
          io.stdout.write(`${definition.id} (${definition.riskHint})\n  ${definition.description.split('\n')[0] ?? ''}\n`);
        }
      }
      return 0;
    } finally {
      await opened.close();
    }
  },
};
