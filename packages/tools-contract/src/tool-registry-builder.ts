import { ESCALATION_PARAMETER_NAMES } from './escalation-parameter-names.js';
import type { FinalizeOptions } from './finalize-options.js';
import { FINALIZE_KEY, FinalizedToolset } from './finalized-toolset.js';
import type { JsonSchema } from './json-schema.js';
import { removeSchemaProperties } from './remove-schema-properties.js';
import type { Tool, ToolInputSchema } from './tool.js';
import { type AnyTool, type RejectedField, ToolAdapter } from './tool-adapter.js';
import type { ToolId } from './tool-id.js';
import { toolInputJsonSchema } from './tool-input-json-schema.js';
import { TOOL_RISKS } from './tool-risk.js';
import { ToolsetConfigurationError, type ToolsetConfigurationProblem } from './toolset-configuration-error.js';
import type { ToolsetConfig } from './toolset-config.js';

const ESCALATION_REJECTION: readonly RejectedField[] = Object.freeze(
  ESCALATION_PARAMETER_NAMES.map((name) =>
    Object.freeze({
      name,
      reason: 'not accepted in this session because no sandbox is available, so no extra access can be granted; remove the field',
    }),
  ),
);

interface Problem {
  problem: ToolsetConfigurationProblem;
  message: string;
}

/**
 * Registers the tools this program knows (§3; builtins' `builtinRegistry()` registers the
 * seven), then makes per-agent toolsets with `finalize`. Registration only records a snapshot of
 * each tool; `finalize` checks everything and reports every problem at once. The builder can keep
 * registering and finalize again; a finalized toolset never changes.
 */
export class ToolRegistryBuilder<Session = unknown, Policy = unknown> {
  readonly #tools: AnyTool<Session, Policy>[] = [];

  /**
   * Records a snapshot of `tool`: its members are read now (later changes to the object have no
   * effect). Members are read by name, not spread, so a tool written as a class works too: its
   * prototype methods and getters are found, and `inspect`/`execute` run with the tool itself as
   * `this` (private fields included). Returns the builder.
   */
  register<Schema extends ToolInputSchema>(tool: Tool<Schema, Session, Policy>): this {
    const source = tool as AnyTool<Session, Policy>;
    const { inspect, execute } = source;
    this.#tools.push(
      Object.freeze({
        id: source.id,
        description: source.description,
        risk: source.risk,
        inputSchema: source.inputSchema,
        inspect: typeof inspect === 'function' ? inspect.bind(source) : inspect,
        execute: typeof execute === 'function' ? execute.bind(source) : execute,
      }),
    );
    return this;
  }

  /** The registered IDs in registration order (duplicates included until `finalize` rejects them). */
  get registeredIds(): readonly ToolId[] {
    return Object.freeze(this.#tools.map((tool) => tool.id));
  }

  /**
   * §3: the toolset of `config.tools`, with `session` bound for every call. Throws a
   * `ToolsetConfigurationError` listing every problem: blank IDs, blank descriptions, duplicate
   * registrations, duplicate selections, selections of unregistered tools, and tools whose input
   * schema is not a JSON object (or makes an escalation parameter required).
   */
  finalize(config: ToolsetConfig, session: Session, options: FinalizeOptions = {}): FinalizedToolset<Session, Policy> {
    const escalationAvailable = options.escalationAvailable ?? true;
    const problems: Problem[] = [];
    const registrations = this.#checkRegistrations(problems);
    const selected = checkSelection(config, registrations, problems);

    const adapters: ToolAdapter<Session, Policy>[] = [];
    for (const tool of selected) {
      const schema = selectedSchema(tool, escalationAvailable, problems);
      if (schema !== undefined) adapters.push(new ToolAdapter(tool, schema, escalationAvailable ? [] : ESCALATION_REJECTION));
    }
    if (problems.length > 0) throw new ToolsetConfigurationError(problems);

    return new FinalizedToolset(FINALIZE_KEY, {
      adapters,
      session,
      spill: options.spill,
      escalationAvailable,
    });
  }

  /** Valid registrations by ID, and the IDs whose registration has a reported problem. */
  #checkRegistrations(problems: Problem[]): Registrations<Session, Policy> {
    const byId = new Map<ToolId, AnyTool<Session, Policy>>();
    const broken = new Set<ToolId>();
    const counts = new Map<ToolId, number>();
    this.#tools.forEach((tool, index) => {
      const label = typeof tool.id === 'string' && tool.id.trim() !== '' ? `"${tool.id}"` : `#${index + 1}`;
      let valid = true;
      if (typeof tool.id !== 'string' || tool.id.trim() === '') {
        valid = false;
        problems.push({
          problem: 'blank_id',
          message: `registered tool #${index + 1}${describeHint(tool)} has a blank id; give every tool an explicit, non-blank ToolId such as "read".`,
        });
      } else if (tool.id !== tool.id.trim()) {
        valid = false;
        problems.push({
          problem: 'invalid_tool',
          message: `tool ${JSON.stringify(tool.id)} has whitespace around its id; use ${JSON.stringify(tool.id.trim())}.`,
        });
      }
      if (typeof tool.description !== 'string' || tool.description.trim() === '') {
        valid = false;
        problems.push({
          problem: 'blank_description',
          message: `tool ${label} has a blank description; describe what it does and when the model should use it.`,
        });
      }
      if (!TOOL_RISKS.includes(tool.risk)) {
        valid = false;
        problems.push({
          problem: 'invalid_tool',
          message: `tool ${label} has risk ${JSON.stringify(tool.risk)}; use one of ${TOOL_RISKS.join(', ')}.`,
        });
      }
      if (typeof tool.inputSchema !== 'object' || tool.inputSchema === null || !('_zod' in tool.inputSchema)) {
        valid = false;
        problems.push({ problem: 'invalid_tool', message: `tool ${label} has no zod inputSchema; give it one, e.g. z.strictObject({ … }).` });
      }
      if (typeof tool.execute !== 'function' || (tool.inspect !== undefined && typeof tool.inspect !== 'function')) {
        valid = false;
        problems.push({ problem: 'invalid_tool', message: `tool ${label} needs an execute function (and inspect, if given, must be a function).` });
      }
      if (typeof tool.id === 'string') counts.set(tool.id, (counts.get(tool.id) ?? 0) + 1);
      if (valid && !byId.has(tool.id)) byId.set(tool.id, tool);
      else if (typeof tool.id === 'string') broken.add(tool.id);
    });
    for (const [id, count] of counts) {
      if (count > 1 && id.trim() !== '') {
        byId.delete(id);
        broken.add(id);
        problems.push({
          problem: 'duplicate_registration',
          message: `tool ${JSON.stringify(id)} is registered ${count} times; register each tool once (one ID, one implementation).`,
        });
      }
    }
    return { byId, broken };
  }
}

interface Registrations<Session, Policy> {
  readonly byId: ReadonlyMap<ToolId, AnyTool<Session, Policy>>;
  readonly broken: ReadonlySet<ToolId>;
}

/** The selected tools in config order; problems for bad selections. */
function checkSelection<Session, Policy>(
  config: ToolsetConfig,
  registrations: Registrations<Session, Policy>,
  problems: Problem[],
): AnyTool<Session, Policy>[] {
  if (typeof config !== 'object' || config === null || !Array.isArray(config.tools)) {
    problems.push({ problem: 'invalid_config', message: 'the ToolsetConfig must be { tools: ToolId[] }.' });
    return [];
  }
  const selected: AnyTool<Session, Policy>[] = [];
  const seen = new Set<ToolId>();
  const reportedDuplicates = new Set<ToolId>();
  config.tools.forEach((id: unknown, index) => {
    if (typeof id !== 'string' || id.trim() === '') {
      problems.push({
        problem: 'blank_id',
        message: `ToolsetConfig.tools[${index}] is blank; list the IDs of registered tools only.`,
      });
      return;
    }
    if (seen.has(id)) {
      if (!reportedDuplicates.has(id)) {
        reportedDuplicates.add(id);
        problems.push({
          problem: 'duplicate_selection',
          message: `ToolsetConfig.tools selects ${JSON.stringify(id)} more than once; list each tool once.`,
        });
      }
      return;
    }
    seen.add(id);
    const tool = registrations.byId.get(id);
    if (tool !== undefined) {
      selected.push(tool);
      return;
    }
    // A selection of a tool whose registration is broken is already reported above.
    if (!registrations.broken.has(id)) {
      const known = [...registrations.byId.keys()];
      problems.push({
        problem: 'unknown_selection',
        message: `ToolsetConfig.tools selects ${JSON.stringify(id)}, which is not registered (registered: ${known.length === 0 ? 'none' : known.join(', ')}); register it or remove it from the selection.`,
      });
    }
  });
  return selected;
}

/** The definition schema of a selected tool, or `undefined` with a problem recorded. */
function selectedSchema<Session, Policy>(
  tool: AnyTool<Session, Policy>,
  escalationAvailable: boolean,
  problems: Problem[],
): JsonSchema | undefined {
  let schema: JsonSchema;
  try {
    schema = toolInputJsonSchema(tool.inputSchema);
  } catch (error) {
    problems.push({
      problem: 'invalid_tool',
      message: `the input schema of tool "${tool.id}" cannot be expressed as JSON Schema (${error instanceof Error ? error.message : String(error)}); use only JSON-representable zod types.`,
    });
    return undefined;
  }
  if (schema['type'] !== 'object') {
    problems.push({
      problem: 'invalid_tool',
      message: `the input schema of tool "${tool.id}" is not an object schema; model APIs take named arguments, so use z.object or z.strictObject.`,
    });
    return undefined;
  }
  const required = Array.isArray(schema['required']) ? schema['required'] : [];
  const requiredEscalation = ESCALATION_PARAMETER_NAMES.filter((name) => required.includes(name));
  if (requiredEscalation.length > 0) {
    problems.push({
      problem: 'invalid_tool',
      message: `tool "${tool.id}" makes ${requiredEscalation.join(' and ')} required; escalation parameters must be optional (§7.5), use .optional().`,
    });
    return undefined;
  }
  return escalationAvailable ? schema : removeSchemaProperties(schema, ESCALATION_PARAMETER_NAMES);
}

function describeHint(tool: { description?: unknown }): string {
  return typeof tool.description === 'string' && tool.description.trim() !== ''
    ? ` (description ${JSON.stringify(tool.description.slice(0, 40))})`
    : '';
}
