import { SandboxError } from '../policy/sandbox-error.js';

/** The two file operation families the parity tests ask about as a whole. */
export type SeatbeltFileOperation = 'file-read*' | 'file-write*';

/** A parsed S-expression of SBPL. `regex` is a `#"…"` regular-expression literal. */
export type SeatbeltExpression =
  | { readonly type: 'list'; readonly items: readonly SeatbeltExpression[] }
  | { readonly type: 'symbol'; readonly name: string }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'regex'; readonly source: string };

/** The kind of node a file operation acts on, for `(vnode-type …)` filters. */
export type SeatbeltVnodeType = 'REGULAR-FILE' | 'DIRECTORY' | 'SYMLINK' | 'CHARACTER-DEVICE' | 'BLOCK-DEVICE' | 'FIFO' | 'SOCKET';

/**
 * What one operation acts on. File operations name a `path`; sysctl, IPC and mach operations a
 * `name`. `vnodeType`, `extensions` (sandbox extensions the process holds, e.g.
 * `com.apple.sandbox.pty` for a PTY it opened itself) and `target` answer the filters of the same
 * names; a filter whose subject is not given does not match.
 */
export interface SeatbeltQuery {
  readonly path?: string;
  readonly name?: string;
  readonly vnodeType?: SeatbeltVnodeType;
  readonly extensions?: readonly string[];
  readonly target?: 'same-sandbox' | 'other';
  /** For `network-outbound`: what is connected to (`unix-socket` with its `path`, or `ip`). */
  readonly remote?: 'unix-socket' | 'ip';
}

/** A profile the evaluator cannot read (syntax error, unknown filter, missing parameter). */
export class SeatbeltProfileError extends SandboxError {
  constructor(message: string) {
    super(message);
    this.name = 'SeatbeltProfileError';
  }
}

/**
 * The members a family query stands for: `decide('file-write*', p)` is `allow` only when every
 * member is allowed, which is what "P is writable" means to the fence.
 */
const familyMembers: Readonly<Record<string, readonly string[]>> = {
  'file-read*': ['file-read-data', 'file-read-metadata', 'file-read-xattr'],
  'file-write*': [
    'file-write-create',
    'file-write-data',
    'file-write-flags',
    'file-write-mode',
    'file-write-owner',
    'file-write-setugid',
    'file-write-times',
    'file-write-unlink',
    'file-write-xattr',
  ],
};

/** Tokenise and parse SBPL text into S-expressions: lists, symbols, strings, `#"…"` regexes; `;` comments. */
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
  /** After the opening quote: the string's value; in a regex, backslashes stay (they belong to the pattern). */
  const readQuoted = (keepEscapes: boolean): string => {
    let value = '';
    for (;;) {
      const next = text[index];
      if (next === undefined) return fail('unterminated string');
      index += 1;
      if (next === '"') return value;
      if (next === '\\') {
        const escaped = text[index];
        if (escaped === undefined) return fail('unterminated escape');
        index += 1;
        if (keepEscapes) value += escaped === '"' ? '"' : `\\${escaped}`;
        else value += escaped === 'n' ? '\n' : escaped === 't' ? '\t' : escaped;
      } else {
        value += next;
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
      return { type: 'string', value: readQuoted(false) };
    }
    if (char === '#' && text[index + 1] === '"') {
      index += 2;
      return { type: 'regex', source: readQuoted(true) };
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

type Predicate = (query: SeatbeltQuery) => boolean;

interface CompiledRule {
  readonly effect: 'allow' | 'deny';
  readonly operations: readonly string[];
  readonly matches: Predicate;
}

function head(expression: SeatbeltExpression): string | undefined {
  if (expression.type !== 'list') return undefined;
  const first = expression.items[0];
  return first?.type === 'symbol' ? first.name : undefined;
}

/** `default` is the root of every operation; `x*` covers every operation whose name starts with `x`. */
function ruleCovers(ruleOperation: string, operation: string): boolean {
  if (ruleOperation === operation || ruleOperation === 'default') return true;
  return ruleOperation.endsWith('*') && operation.startsWith(ruleOperation.slice(0, -1));
}

function pathFilter(test: (path: string) => boolean): Predicate {
  return (query) => query.path !== undefined && test(query.path);
}

function nameFilter(test: (name: string) => boolean): Predicate {
  return (query) => query.name !== undefined && test(query.name);
}

/**
 * Filters of one profile, compiled with the `-D` parameters it runs with. One method per kind of
 * filter: paths, names (sysctl, IPC, Mach), the remote end of a socket, and the combinators.
 */
class FilterCompiler {
  readonly #parameters: Readonly<Record<string, string>>;

  constructor(parameters: Readonly<Record<string, string>>) {
    this.#parameters = parameters;
  }

  compile(expression: SeatbeltExpression): Predicate {
    const name = head(expression);
    if (expression.type !== 'list' || name === undefined) {
      throw new SeatbeltProfileError(`expected a filter, got ${JSON.stringify(expression)}`);
    }
    const argumentsOf = expression.items.slice(1);
    const predicate =
      this.pathFilter(name, argumentsOf) ?? this.nameFilter(name, argumentsOf) ?? this.attributeFilter(name, argumentsOf) ?? this.combinator(name, argumentsOf);
    if (predicate === undefined) throw new SeatbeltProfileError(`unsupported filter (${name} …)`);
    return predicate;
  }

  /** `literal`, `path`, `path-literal`, `subpath`, `prefix`, `regex`. */
  pathFilter(name: string, argumentsOf: readonly SeatbeltExpression[]): Predicate | undefined {
    switch (name) {
      case 'literal':
      case 'path':
      case 'path-literal': {
        const literal = this.stringArgument(argumentsOf[0], name);
        return pathFilter((path) => path === literal);
      }
      case 'subpath': {
        const base = this.stringArgument(argumentsOf[0], name);
        if (base === '/') return pathFilter((path) => path.startsWith('/'));
        const withSlash = base.endsWith('/') ? base : `${base}/`;
        return pathFilter((path) => path === base || path.startsWith(withSlash));
      }
      case 'prefix': {
        const prefix = this.stringArgument(argumentsOf[0], name);
        return pathFilter((path) => path.startsWith(prefix));
      }
      case 'regex': {
        const pattern = this.regexArgument(argumentsOf[0], name);
        return pathFilter((path) => pattern.test(path));
      }
      default:
        return undefined;
    }
  }

  /** Exact names, prefixes and patterns of sysctl, POSIX IPC and Mach names. */
  nameFilter(name: string, argumentsOf: readonly SeatbeltExpression[]): Predicate | undefined {
    switch (name) {
      case 'sysctl-name':
      case 'ipc-posix-name':
      case 'global-name':
      case 'local-name': {
        const exact = this.stringArgument(argumentsOf[0], name);
        return nameFilter((subject) => subject === exact);
      }
      case 'sysctl-name-prefix':
      case 'ipc-posix-name-prefix': {
        const prefix = this.stringArgument(argumentsOf[0], name);
        return nameFilter((subject) => subject.startsWith(prefix));
      }
      case 'ipc-posix-name-regex': {
        const pattern = this.regexArgument(argumentsOf[0], name);
        return nameFilter((subject) => pattern.test(subject));
      }
      default:
        return undefined;
    }
  }

  /** `vnode-type`, `extension`, `target`, and `(remote unix-socket|ip …)`. */
  attributeFilter(name: string, argumentsOf: readonly SeatbeltExpression[]): Predicate | undefined {
    switch (name) {
      case 'vnode-type': {
        const type = this.symbolArgument(argumentsOf[0], name);
        return (query) => query.vnodeType === type;
      }
      case 'extension': {
        const extension = this.stringArgument(argumentsOf[0], name);
        return (query) => query.extensions?.includes(extension) === true;
      }
      case 'target': {
        const target = this.symbolArgument(argumentsOf[0], name);
        return (query) => query.target === target;
      }
      case 'remote': {
        // `(remote unix-socket)`, `(remote unix-socket (path-literal P))`, `(remote ip)`.
        const kind = this.symbolArgument(argumentsOf[0], name);
        if (kind !== 'unix-socket' && kind !== 'ip') throw new SeatbeltProfileError(`unsupported (remote ${kind} …)`);
        const inner = argumentsOf.slice(1).map((part) => this.compile(part));
        return (query) => query.remote === kind && inner.every((part) => part(query));
      }
      default:
        return undefined;
    }
  }

  /** `require-all`, `require-any`, `require-not`. */
  combinator(name: string, argumentsOf: readonly SeatbeltExpression[]): Predicate | undefined {
    switch (name) {
      case 'require-all': {
        const parts = argumentsOf.map((part) => this.compile(part));
        return (query) => parts.every((part) => part(query));
      }
      case 'require-any': {
        const parts = argumentsOf.map((part) => this.compile(part));
        return (query) => parts.some((part) => part(query));
      }
      case 'require-not': {
        if (argumentsOf.length !== 1) throw new SeatbeltProfileError('require-not takes exactly one filter');
        const inner = this.compile(argumentsOf[0] as SeatbeltExpression);
        return (query) => !inner(query);
      }
      default:
        return undefined;
    }
  }

  stringArgument(expression: SeatbeltExpression | undefined, where: string): string {
    if (expression?.type === 'string') return expression.value;
    if (expression !== undefined && head(expression) === 'param' && expression.type === 'list') {
      const name = expression.items[1];
      if (name?.type !== 'string' || expression.items.length !== 2) throw new SeatbeltProfileError(`malformed (param …) in ${where}`);
      const value = this.#parameters[name.value];
      if (value === undefined) throw new SeatbeltProfileError(`parameter ${name.value} is not defined (-D ${name.value}=…)`);
      return value;
    }
    throw new SeatbeltProfileError(`${where} needs a string or (param "NAME")`);
  }

  regexArgument(expression: SeatbeltExpression | undefined, where: string): RegExp {
    const source = expression?.type === 'regex' ? expression.source : this.stringArgument(expression, where);
    try {
      return new RegExp(source);
    } catch (error) {
      throw new SeatbeltProfileError(`${where}: invalid pattern ${JSON.stringify(source)} (${String(error)})`);
    }
  }

  symbolArgument(expression: SeatbeltExpression | undefined, where: string): string {
    if (expression?.type === 'symbol') return expression.name;
    throw new SeatbeltProfileError(`${where} needs a symbol`);
  }
}

/**
 * Answers allow/deny for an operation over the parsed profile — by really evaluating it, not by
 * re-deriving from the policy. Subset: `(version 1)`, `(allow|deny OP… FILTER…)` with filters
 * `literal`, `path`, `subpath`, `prefix`, `regex` (a `#"…"` literal, a string or a parameter,
 * evaluated as an ECMAScript pattern — the profiles use only anchors, classes, groups, `?`, `*`,
 * `+` and escapes, which mean the same there), `vnode-type`, `extension`, `target`, `sysctl-name`,
 * `sysctl-name-prefix`, `ipc-posix-name`, `ipc-posix-name-prefix`, `ipc-posix-name-regex`,
 * `global-name`, `local-name`, `require-all`, `require-any`, `require-not`, `(param "N")`. Anything
 * else throws, so a profile the evaluator cannot read never passes a parity test by accident.
 *
 * The last matching rule wins, as in SBPL. A rule on a family (`file-write*`, `network*`), `file*`
 * or `default` covers each member; a rule on one member (`file-write-data`) only that member.
 * Moves are modelled the way Seatbelt checks them: `file-write-unlink` on the source name and
 * `file-write-create` on the destination name — nothing below a moved folder is looked at, which
 * is why folders holding protected entries must themselves be excluded.
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
    const filters = new FilterCompiler(parameters);
    const rules: CompiledRule[] = [];
    let defaultEffect: 'allow' | 'deny' = 'deny';
    for (const expression of parseSeatbeltProfile(profile)) {
      const name = head(expression);
      if (expression.type !== 'list' || name === undefined) throw new SeatbeltProfileError('top-level forms must be lists');
      if (name === 'version') continue;
      if (name !== 'allow' && name !== 'deny') throw new SeatbeltProfileError(`unsupported top-level form (${name} …)`);
      const operations: string[] = [];
      const parts: SeatbeltExpression[] = [];
      for (const item of expression.items.slice(1)) {
        if (item.type === 'symbol') operations.push(item.name);
        else parts.push(item);
      }
      if (operations.length === 0) throw new SeatbeltProfileError(`(${name}) without an operation`);
      if (operations.length === 1 && operations[0] === 'default' && parts.length === 0) {
        defaultEffect = name;
        continue;
      }
      const compiled = parts.map((part) => filters.compile(part));
      // Several filters directly in a rule are alternatives in SBPL.
      const matches: Predicate = compiled.length === 0 ? () => true : (query) => compiled.some((filter) => filter(query));
      rules.push({ effect: name, operations, matches });
    }
    return new SeatbeltEvaluator(rules, defaultEffect);
  }

  /**
   * `allow` or `deny` for one operation the way `sandbox-exec` would decide it. A family
   * (`file-write*`) is `allow` only if every member is; any other name is one operation.
   */
  decideQuery(operation: string, query: SeatbeltQuery): 'allow' | 'deny' {
    const members = familyMembers[operation];
    if (members !== undefined) {
      return members.every((member) => this.decideOne(member, query) === 'allow') ? 'allow' : 'deny';
    }
    return this.decideOne(operation, query);
  }

  /** `decideQuery` for a file operation on one canonical path. */
  decide(operation: SeatbeltFileOperation | (string & {}), path: string, context: Omit<SeatbeltQuery, 'path'> = {}): 'allow' | 'deny' {
    return this.decideQuery(operation, { ...context, path });
  }

  /**
   * `rename(source, destination)`: `file-write-unlink` on the source name and `file-write-create`
   * on the destination name, as Seatbelt checks a move. What lies below a moved folder is not
   * checked at all.
   */
  decideRename(source: string, destination: string): 'allow' | 'deny' {
    return this.decideOne('file-write-unlink', { path: source }) === 'allow' &&
      this.decideOne('file-write-create', { path: destination }) === 'allow'
      ? 'allow'
      : 'deny';
  }

  private decideOne(operation: string, query: SeatbeltQuery): 'allow' | 'deny' {
    let effect = this.defaultEffect;
    for (const rule of this.rules) {
      if (!rule.operations.some((candidate) => ruleCovers(candidate, operation))) continue;
      if (rule.matches(query)) effect = rule.effect;
    }
    return effect;
  }
}
