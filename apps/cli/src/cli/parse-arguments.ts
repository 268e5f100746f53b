import { UsageError } from './usage-error.js';

/** One option a command accepts: a `--name value` option or a `--name` flag. */
export interface OptionSpec {
  readonly name: string;
  readonly kind: 'value' | 'flag';
  /** Allowed values of a `value` option. */
  readonly choices?: readonly string[];
  /** May be given more than once (values collected in order). */
  readonly repeatable?: boolean;
}

/** What `parseArguments` found. */
export interface ParsedArguments {
  readonly positionals: readonly string[];
  readonly values: ReadonlyMap<string, readonly string[]>;
  readonly flags: ReadonlySet<string>;
}

/**
 * Parses `argv` of one command against its options. `--name value` and `--name=value` are both
 * accepted; `--` ends the options. Anything unknown, missing or out of range is a `UsageError`
 * naming what was wrong and how to get help.
 */
export function parseArguments(command: string, argv: readonly string[], options: readonly OptionSpec[]): ParsedArguments {
  const positionals: string[] = [];
  const values = new Map<string, string[]>();
  const flags = new Set<string>();
  const byName = new Map(options.map((option) => [option.name, option]));
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    if (argument === '--') {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    if (!argument.startsWith('--') || argument === '-') {
      if (argument.startsWith('-') && argument !== '-' && !/^-\d/.test(argument)) {
        throw new UsageError(`openwork ${command}: unknown option ${argument}${didYouMean(argument.replace(/^-+/, ''), options)}; see openwork ${command} --help`);
      }
      positionals.push(argument);
      continue;
    }
    const equals = argument.indexOf('=');
    const name = argument.slice(2, equals === -1 ? undefined : equals);
    const option = byName.get(name);
    if (option === undefined) throw new UsageError(`openwork ${command}: unknown option --${name}${didYouMean(name, options)}; see openwork ${command} --help`);
    if (option.kind === 'flag') {
      if (equals !== -1) throw new UsageError(`openwork ${command}: --${name} takes no value`);
      flags.add(name);
      continue;
    }
    let value: string | undefined;
    if (equals !== -1) value = argument.slice(equals + 1);
    else {
      value = argv[index + 1];
      index += 1;
    }
    if (value === undefined || value === '') throw new UsageError(`openwork ${command}: --${name} needs a value; see openwork ${command} --help`);
    if (option.choices !== undefined && !option.choices.includes(value)) {
      throw new UsageError(`openwork ${command}: --${name} must be one of ${option.choices.join(', ')}, got ${JSON.stringify(value)}`);
    }
    const list = values.get(name) ?? [];
    if (list.length > 0 && option.repeatable !== true) throw new UsageError(`openwork ${command}: --${name} given twice`);
    list.push(value);
    values.set(name, list);
  }
  return { positionals, values, flags };
}

/** The one value of option `name`, if given. */
export function optionValue(parsed: ParsedArguments, name: string): string | undefined {
  return parsed.values.get(name)?.[0];
}

/**
 * ` (did you mean --workspace?)` for a mistyped option: the option within two edits (or the one
 * the typed text is a prefix of). Kept here, small, so parsing loads nothing else (start-up).
 */
function didYouMean(typed: string, options: readonly OptionSpec[]): string {
  const lowered = typed.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const option of options) {
    const distance = option.name.startsWith(lowered) && lowered.length >= 2 ? 1 : editDistance(lowered, option.name);
    if (distance <= Math.min(2, Math.max(1, Math.floor(option.name.length / 3))) && (best === undefined || distance < best.distance)) best = { name: option.name, distance };
  }
  return best === undefined ? '' : ` (did you mean --${best.name}?)`;
}

function editDistance(a: string, b: string): number {
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution);
      // A swap of two neighbours counts as one edit (--wokrspace).
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) current[j] = Math.min(current[j] as number, (beforePrevious[j - 2] ?? 0) + 1);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length] as number;
}
