import { SandboxError } from '../policy/sandbox-error.js';

/** The two file operation families the parity tests ask about. */
export type SeatbeltFileOperation = 'file-read*' | 'file-write*';

/** A parsed S-expression of SBPL. */
export type SeatbeltExpression =
  | { readonly type: 'list'; readonly items: readonly SeatbeltExpression[] }
  | { readonly type: 'symbol'; readonly name: string }
  | { readonly type: 'string'; readonly value: string };

/** A profile the evaluator cannot read (syntax error, unknown filter, missing parameter). */
export class SeatbeltProfileError extends SandboxError {
  constructor(message: string) {
    super(message);
    this.name = 'SeatbeltProfileError';
  }
}

/** Tokenise and parse SBPL text into S-expressions: lists, symbols, strings; `;` comments. */
export function parseSeatbeltProfile(text: string): SeatbeltExpression[] {
  let index = 0;
  const fail = (what: string): never => {
    throw new SeatbeltProfileError(`SBPL syntax error at offset ${index}: ${what}`);
  };
  const skipSpace = (): void => {
    while (index < text.length) {
      const char = text[index];
      if (char === ';') {
        while (index < text.length && text[index] !== '\n') index += 1;
      } else if (char === ' ' || char === '\n' || char === '\t' || char === '\r') {
        index += 1;
      } else {
        return;
      }
    }
  };
  const readExpression = (): SeatbeltExpression => {
    skipSpace();
    const char = text[index];
    if (char === undefined) return fail('unexpected end of profile');
    if (char === '(') {
      index += 1;
      const items: SeatbeltExpression[] = [];
      for (;;) {
        skipSpace();
        if (index >= text.length) return fail('unclosed list');
        if (text[index] === ')') {
          index += 1;
          return { type: 'list', items };
        }
        items.push(readExpression());
      }
    }
    if (char === ')') return fail('unexpected )');
    if (char === '"') {
      index += 1;
      let value = '';
      for (;;) {
        const next = text[index];
        if (next === undefined) return fail('unterminated string');
        index += 1;
        if (next === '"') return { type: 'string', value };
        if (next === '\\') {
          const escaped = text[index];
          if (escaped === undefined) return fail('unterminated escape');
          index += 1;
          value += escaped === 'n' ? '\n' : escaped === 't' ? '\t' : escaped;
        } else {
          value += next;
        }
      }
    }
    const start = index;
    while (index < text.length && !/[\s()";]/.test(text[index] ?? '')) index += 1;
    return { type: 'symbol', name: text.slice(start, index) };
  };
  const expressions: SeatbeltExpression[] = [];
  for (;;) {
    skipSpace();
    if (index >= text.length) return expressions;
    expressions.push(readExpression());
  }
}

type PathPredicate = (path: string) => boolean;

interface CompiledRule {
  readonly effect: 'allow' | 'deny';
  readonly operations: readonly string[];
  readonly matches: PathPredicate;
}

function head(expression: SeatbeltExpression): string | undefined {
  if (expression.type !== 'list') return undefined;
  const first = expression.items[0];
  return first?.type === 'symbol' ? first.name : undefined;
}

function isFileOperation(name: string): boolean {
  return name === 'default' || name === 'file*' || name.startsWith('file-');
}

/**
 * Answers allow/deny for (operation, path) over the parsed profile — by really evaluating it, not
 * by re-deriving from the policy. Subset: `(version 1)`, `(allow|deny OP… FILTER…)` with filters
 * `literal`, `path`, `subpath`, `prefix`, `require-all`, `require-any`, `require-not`, `(param "N")`.
 * Rules for non-file operations are parsed and skipped. The last matching rule wins, as in SBPL;
 * a rule for the family (`file-read*`), `file*` or `default` applies to a query of that family.
 * Rules for a single member (`file-read-data`, `file-write-unlink`) are ignored: the answer is for
 * the whole family, which is all the generator emits.
 */
export class SeatbeltEvaluator {
  private readonly rules: readonly CompiledRule[];
  private readonly defaultEffect: 'allow' | 'deny';

  private constructor(rules: readonly CompiledRule[], defaultEffect: 'allow' | 'deny') {
    this.rules = rules;
    this.defaultEffect = defaultEffect;
  }

  /** Parse `profile` with the `-D` parameters it will be run with. */
  static compile(profile: string, parameters: Readonly<Record<string, string>>): SeatbeltEvaluator {
    const expressions = parseSeatbeltProfile(profile);
    const rules: CompiledRule[] = [];
    let defaultEffect: 'allow' | 'deny' = 'deny';

    const stringArgument = (expression: SeatbeltExpression | undefined, where: string): string => {
      if (expression?.type === 'string') return expression.value;
      if (expression !== undefined && head(expression) === 'param' && expression.type === 'list') {
        const name = expression.items[1];
        if (name?.type !== 'string' || expression.items.length !== 2) throw new SeatbeltProfileError(`malformed (param …) in ${where}`);
        const value = parameters[name.value];
        if (value === undefined) throw new SeatbeltProfileError(`parameter ${name.value} is not defined (-D ${name.value}=…)`);
        return value;
      }
      throw new SeatbeltProfileError(`${where} needs a string or (param "NAME")`);
    };

    const compileFilter = (expression: SeatbeltExpression): PathPredicate => {
      const name = head(expression);
      if (expression.type !== 'list' || name === undefined) {
        throw new SeatbeltProfileError(`expected a filter, got ${JSON.stringify(expression)}`);
      }
      const argumentsOf = expression.items.slice(1);
      switch (name) {
        case 'literal':
        case 'path': {
          const literal = stringArgument(argumentsOf[0], name);
          return (path) => path === literal;
        }
        case 'subpath': {
          const base = stringArgument(argumentsOf[0], name);
          if (base === '/') return (path) => path.startsWith('/');
          const withSlash = base.endsWith('/') ? base : `${base}/`;
          return (path) => path === base || path.startsWith(withSlash);
        }
        case 'prefix': {
          const prefix = stringArgument(argumentsOf[0], name);
          return (path) => path.startsWith(prefix);
        }
        case 'require-all': {
          const parts = argumentsOf.map(compileFilter);
          return (path) => parts.every((part) => part(path));
        }
        case 'require-any': {
          const parts = argumentsOf.map(compileFilter);
          return (path) => parts.some((part) => part(path));
        }
        case 'require-not': {
          if (argumentsOf.length !== 1) throw new SeatbeltProfileError('require-not takes exactly one filter');
          const inner = compileFilter(argumentsOf[0] as SeatbeltExpression);
          return (path) => !inner(path);
        }
        default:
          throw new SeatbeltProfileError(`unsupported filter (${name} …) in a file rule`);
      }
    };

    for (const expression of expressions) {
      const name = head(expression);
      if (expression.type !== 'list' || name === undefined) throw new SeatbeltProfileError('top-level forms must be lists');
      if (name === 'version') continue;
      if (name !== 'allow' && name !== 'deny') throw new SeatbeltProfileError(`unsupported top-level form (${name} …)`);
      const operations: string[] = [];
      const filters: SeatbeltExpression[] = [];
      for (const item of expression.items.slice(1)) {
        if (item.type === 'symbol') operations.push(item.name);
        else filters.push(item);
      }
      if (operations.length === 0) throw new SeatbeltProfileError(`(${name}) without an operation`);
      if (operations.length === 1 && operations[0] === 'default' && filters.length === 0) {
        defaultEffect = name;
        continue;
      }
      if (!operations.some(isFileOperation)) continue;
      const compiled = filters.map(compileFilter);
      // Several filters directly in a rule are alternatives in SBPL.
      const matches: PathPredicate =
        compiled.length === 0 ? () => true : (path) => compiled.some((filter) => filter(path));
      rules.push({ effect: name, operations, matches });
    }
    return new SeatbeltEvaluator(rules, defaultEffect);
  }

  /** `allow` or `deny` for one canonical path, the way `sandbox-exec` would decide it. */
  decide(operation: SeatbeltFileOperation, path: string): 'allow' | 'deny' {
    let effect = this.defaultEffect;
    for (const rule of this.rules) {
      // `default` is the root of every operation and `file*` of every file operation (SBPL).
      if (!rule.operations.some((candidate) => candidate === operation || candidate === 'file*' || candidate === 'default')) continue;
      if (rule.matches(path)) effect = rule.effect;
    }
    return effect;
  }
}
