import * as path from 'node:path';
import type { CommandAnalysisContext, CommandFinding } from './command-analysis.js';
import { checkFind, checkRemove, findExecutedCommands } from './check-recursive-delete.js';
import { checkGitCommand } from './check-git-command.js';
import { checkHistoryMove, checkHistoryRemoval, checkInterpreterHistoryRemoval } from './check-history-removal.js';
import { checkInfrastructureCommand } from './check-infrastructure-command.js';
import { checkSystemCommand, isDeviceTarget } from './check-system-command.js';
import { describeInterpreterInvocation } from './interpreter-invocation.js';
import type { PathTargetContext } from './judge-path-target.js';
import { parseShellScript, shellNodeText, shellNodeType, walkShellNodes } from './parse-shell-script.js';
import type { RuleMatch } from './rule-match.js';
import type {
  ShellBinaryCmd,
  ShellCStyleLoop,
  ShellCallExpr,
  ShellDeclClause,
  ShellForClause,
  ShellFuncDecl,
  ShellLit,
  ShellNode,
  ShellStmt,
  ShellWhileClause,
  ShellWordIter,
} from './shell-syntax-tree.js';
import type { ResolvedWord, ShellSubstitution } from './shell-word-resolver.js';
import { ShellWordResolver } from './shell-word-resolver.js';
import { programName, unwrapCommand } from './unwrap-command.js';

// `bash -c "eval 'sh -c …'"` nests; beyond this depth the command is reported, not analysed.
const maximumNestingDepth = 8;
const downloadPrograms = new Set(['curl', 'wget', 'fetch', 'http', 'https', 'xh', 'lwp-request', 'GET']);

// mvdan/sh operator codes (syntax.BinCmdOperator, syntax.RedirOperator).
const pipeOperators = new Set([12, 13]);
const writeRedirections = new Set([54, 55, 57, 60, 64, 65]);
const duplicateOutput = 59;
const readRedirection = 56;
const hereDocuments = new Set([61, 62]);
const hereString = 63;

interface ScriptState {
  readonly source: Buffer;
  readonly resolver: ShellWordResolver;
  readonly depth: number;
  /** Pipelines already judged as part of an enclosing pipeline (`a | b | c` nests `a | b`). */
  readonly coveredPipelines: Set<string>;
}

// Nodes whose commands run in a subshell: a `cd` inside does not move the commands after them.
const subshellNodes = new Set(['Subshell', 'CmdSubst', 'ProcSubst']);

/** Where a download program saves what it fetches: `-o FILE`, `-O` (the URL's name), `wget URL`. */
function downloadedFiles(program: string, words: readonly ResolvedWord[]): string[] {
  const values = words.map((word) => word.value);
  const files: string[] = [];
  const urls = values.filter((text): text is string => text !== undefined && /^[a-z][a-z0-9+.-]*:\/\//i.test(text));
  const urlName = (url: string | undefined): string | undefined => {
    const name = url?.replace(/[?#].*$/, '').replace(/\/+$/, '').split('/').pop();
    return name === undefined || name === '' || name.includes(':') ? undefined : name;
  };
  for (let index = 0; index < values.length; index++) {
    const text = values[index];
    if (text === undefined) continue;
    const next = values[index + 1];
    if (program === 'curl') {
      if ((text === '--output' || /^-[a-zA-Z]*o$/.test(text)) && next !== undefined) files.push(next);
      else if (text.startsWith('--output=')) files.push(text.slice('--output='.length));
      else if (/^-[a-zA-Z]*o.+/.test(text)) files.push(text.slice(text.indexOf('o') + 1));
      else if (text === '-O' || text === '--remote-name' || (/^-[a-zA-Z]*O$/.test(text) && !text.startsWith('--'))) {
        const name = urlName(urls[0]);
        if (name !== undefined) files.push(name);
      }
    } else if (program === 'wget') {
      if ((text === '-O' || text === '--output-document') && next !== undefined && next !== '-') files.push(next);
      else if (text.startsWith('--output-document=')) files.push(text.slice('--output-document='.length));
    }
  }
  if (program === 'wget' && files.length === 0 && !values.some((text) => text === '-O' || text === '-qO-' || text === '-O-' || text?.startsWith('--output-document'))) {
    for (const url of urls) {
      const name = urlName(url);
      if (name !== undefined) files.push(name);
    }
  }
  return files;
}

/** Walks every command a script would run, including nested shells, and collects findings (§3.6). */
export class CommandAnalyzer {
  readonly #findings = new Map<string, CommandFinding>();
  readonly #pathContext: PathTargetContext;
  /** `git config alias.x …` earlier in the command line, for `git x` after it. */
  readonly #gitAliases = new Map<string, string>();
  /** A `git checkout --orphan` earlier in the command line: a forced `git branch -M` then replaces history. */
  #afterOrphanCheckout = false;
  /** Files a download program wrote earlier in the command line (`curl -o i.sh`), as path patterns. */
  readonly #downloads = new Set<string>();

  constructor(context: CommandAnalysisContext) {
    this.#pathContext = {
      homeDirectory: context.homeDirectory,
      workspaceRoots: context.workspaceRoots ?? [],
      workingDirectory: context.cwd,
    };
  }

  get findings(): CommandFinding[] {
    return [...this.#findings.values()];
  }

  analyzeScript(source: string, resolver: ShellWordResolver, depth: number): void {
    if (depth > maximumNestingDepth) {
      this.#add(source, {
        rule: 'unparseable',
        reason: `The command nests shells (bash -c, eval) more than ${maximumNestingDepth} levels deep, so it cannot be checked. Write the inner command directly.`,
      });
      return;
    }
    const parsed = parseShellScript(source);
    if (!parsed.ok) {
      this.#add(source, {
        rule: 'unparseable',
        reason: `The command could not be parsed as bash (${parsed.message}), so it cannot be checked for dangerous operations. Simplify it or fix the quoting, then try again.`,
      });
      return;
    }
    const state: ScriptState = { source: parsed.source, resolver, depth, coveredPipelines: new Set() };
    // A `cd` in a subshell, a substitution or a pipeline stage ends with it (source order, §3.6).
    const scopes: Array<{ readonly end: number; readonly directory: string }> = [];
    walkShellNodes(parsed.file, (node) => {
      const start = node.Pos().Offset();
      while (scopes.length > 0 && start >= (scopes[scopes.length - 1] as { end: number }).end) {
        resolver.restoreDirectory((scopes.pop() as { directory: string }).directory);
      }
      const type = shellNodeType(node);
      if (subshellNodes.has(type) || (type === 'BinaryCmd' && pipeOperators.has((node as ShellBinaryCmd).Op))) {
        scopes.push({ end: node.End().Offset(), directory: resolver.directory });
      }
      this.#visit(node, state);
      return true;
    });
  }

  /** What relative paths mean at this point of the script (`cd` followed). */
  #contextOf(state: ScriptState): PathTargetContext {
    return { ...this.#pathContext, workingDirectory: state.resolver.directory };
  }

  #visit(node: ShellNode, state: ScriptState): void {
    switch (shellNodeType(node)) {
      case 'CallExpr':
        this.#visitCall(node as ShellCallExpr, state);
        break;
      case 'DeclClause':
        for (const assignment of (node as ShellDeclClause).Args) {
          if (assignment.Naked || assignment.Name === null) continue;
          const value = state.resolver.resolveAssignedValue(assignment.Value);
          state.resolver.assign(assignment.Name.Value, value === undefined ? null : [value]);
        }
        break;
      case 'ForClause':
        this.#visitFor(node as ShellForClause, state);
        break;
      case 'Stmt':
        this.#visitStatement(node as ShellStmt, state);
        break;
      case 'BinaryCmd':
        this.#visitPipeline(node as ShellBinaryCmd, state);
        break;
      case 'FuncDecl':
        this.#visitFunction(node as ShellFuncDecl, state);
        break;
      case 'WhileClause':
        this.#visitLoop(node as ShellWhileClause, state);
        break;
    }
  }

  #visitCall(call: ShellCallExpr, state: ScriptState): void {
    if (call.Args.length === 0) {
      for (const assignment of call.Assigns) {
        if (assignment.Name === null || assignment.Array !== null) continue;
        const value = state.resolver.resolveAssignedValue(assignment.Value);
        state.resolver.assign(assignment.Name.Value, value === undefined ? null : [value]);
      }
      return;
    }
    const words = call.Args.flatMap((word) => state.resolver.resolveArgument(word));
    // `GIT_CONFIG_PARAMETERS=… git gc`: the command's own environment, for git's settings.
    const environment = call.Assigns.flatMap((assignment) =>
      assignment.Name === null || assignment.Array !== null ? [] : [`${assignment.Name.Value}=${state.resolver.resolveAssignedValue(assignment.Value) ?? UNKNOWN_VALUE}`],
    );
    this.#analyzeWords(words, shellNodeText(call, state.source), state, environment);
  }

  /** `for d in / ~; do rm -rf "$d"; done` checks each listed value. */
  #visitFor(clause: ShellForClause, state: ScriptState): void {
    if (shellNodeType(clause.Loop) === 'CStyleLoop' && (clause.Loop as ShellCStyleLoop).Cond === null) {
      this.#checkEndlessLoop(clause, clause.Do, state); // for ((;;))
      return;
    }
    if (shellNodeType(clause.Loop) !== 'WordIter') return;
    const iteration = clause.Loop as ShellWordIter;
    const fields = iteration.Items.flatMap((word) => state.resolver.resolveArgument(word));
    const values = fields.map((field) => field.value);
    const known = iteration.Items.length > 0 && values.every((value): value is string => value !== undefined);
    state.resolver.assign(iteration.Name.Value, known ? values : null);
  }

  #analyzeWords(words: readonly ResolvedWord[], text: string, state: ScriptState, environment: readonly string[] = []): void {
    const unwrapped = unwrapCommand(words);
    for (const wrapper of unwrapped.privileged) {
      this.#add(text, {
        rule: 'privilege-escalation',
        reason: `${wrapper} runs the command as another user (usually root), outside the sandbox's permissions for this session. Run it without ${wrapper}, or ask the user to run it themselves.`,
      });
    }
    const [programWord, ...rest] = unwrapped.words;
    if (programWord === undefined) return;
    const program = programName(programWord);
    const context = this.#contextOf(state);
    if (program === undefined) {
      // The program is only known at run time (`$CMD -rf /`): judge the arguments as if it were rm.
      for (const match of checkRemove(rest, context)) {
        this.#add(text, { rule: match.rule, reason: `The program name is only known at run time; if it is rm: ${match.reason}` });
      }
      return;
    }
    if (this.#isDownloaded(programWord, state)) this.#add(text, remoteScript(program));
    const matches: RuleMatch[] = [];
    switch (program) {
      case 'rm':
        matches.push(...checkRemove(rest, context));
        break;
      case 'find':
        matches.push(...checkFind(rest, context, (command) => programName(unwrapCommand(command).words[0])));
        for (const command of findExecutedCommands(rest)) this.#analyzeWords(command, text, state);
        break;
      case 'cd':
      case 'pushd':
        state.resolver.changeDirectory(rest.find((word) => word.value === undefined || !word.value.startsWith('-') || word.value === '-'));
        break;
      case 'popd':
        state.resolver.changeDirectory({ value: '-', pattern: '-', script: '-', substitutions: [] });
        break;
      case 'git': {
        // Settings given through the environment (`GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_KEY_<n>`),
        // as an assignment before the command or through `env NAME=value git …`.
        const assignments = [...environment, ...words.slice(0, words.indexOf(programWord)).map((word) => word.value ?? UNKNOWN_VALUE)];
        const check = checkGitCommand(rest, { aliases: this.#gitAliases, afterOrphanCheckout: this.#afterOrphanCheckout, environmentSettings: gitEnvironmentSettings(assignments) });
        matches.push(...check.matches);
        if (check.startsOrphanBranch === true) this.#afterOrphanCheckout = true;
        if (check.definedAlias !== undefined) this.#gitAliases.set(check.definedAlias.name, check.definedAlias.value);
        if (check.aliasScript !== undefined) this.analyzeScript(check.aliasScript, state.resolver.child(), state.depth + 1);
        break;
      }
      case 'curl':
      case 'wget':
        for (const file of downloadedFiles(program, rest)) this.#downloads.add(this.#pathKey(file, state));
        break;
      case 'trap':
        if (rest[0] !== undefined && !rest[0].value?.startsWith('-')) this.#analyzeNested(rest[0], state);
        break;
      case 'alias':
        for (const word of rest) {
          const at = word.script.indexOf('=');
          if (at > 0) this.#analyzeNested({ ...word, script: word.script.slice(at + 1) }, state);
        }
        break;
      case 'mv':
      case 'rename':
        matches.push(...checkSystemCommand(program, rest, context), ...checkHistoryMove(program, rest, context));
        break;
      case 'unlink':
      case 'shred':
      case 'srm':
      case 'trash':
      case 'trash-put':
      case 'rimraf':
        // Other removers (§3.6, judged by effect): a `.git` history target goes as with `rm -r`.
        matches.push(...checkHistoryRemoval(program, rest.filter((word) => word.value === undefined || !word.value.startsWith('-')), true, context));
        break;
      default:
        matches.push(...checkSystemCommand(program, rest, context), ...checkInfrastructureCommand(program, rest));
    }
    const interpreter = describeInterpreterInvocation(program, rest);
    if (interpreter !== undefined) {
      const { codeWord } = interpreter;
      // `python3 -c 'shutil.rmtree(".git/objects")'`: code that removes or moves and names history.
      if (interpreter.language === 'other' && interpreter.commandString === undefined && codeWord !== undefined && codeWord.value !== undefined && isInlineCode(rest, codeWord)) {
        matches.push(...checkInterpreterHistoryRemoval(program, codeWord.value, context));
      }
      if (codeWord !== undefined && (this.#fetchesRemoteCode(codeWord.substitutions, state) || (interpreter.commandString === undefined && this.#isDownloaded(codeWord, state)))) {
        matches.push(remoteScript(program));
      }
      if (interpreter.commandString !== undefined) this.#analyzeNested(interpreter.commandString, state);
    }
    for (const match of matches) this.#add(text, match);
  }

  /** Re-parses a string that a shell will run (`bash -c`, `eval`, `su -c`, `trap`, `alias`). */
  #analyzeNested(word: ResolvedWord, state: ScriptState): void {
    this.analyzeScript(word.script, state.resolver.child(), state.depth + 1);
  }

  #visitStatement(statement: ShellStmt, state: ScriptState): void {
    let interpreter: ReturnType<typeof describeInterpreterInvocation>;
    let program: string | undefined;
    if (statement.Cmd !== null && shellNodeType(statement.Cmd) === 'CallExpr') {
      const words = (statement.Cmd as ShellCallExpr).Args.flatMap((word) => state.resolver.resolveArgument(word));
      const [programWord, ...rest] = unwrapCommand(words).words;
      program = programName(programWord);
      interpreter = program === undefined ? undefined : describeInterpreterInvocation(program, rest);
    }
    for (const redirect of statement.Redirs) {
      if (redirect.Word === null) continue;
      const targets = state.resolver.resolveArgument(redirect.Word);
      const isWrite =
        writeRedirections.has(redirect.Op) ||
        (redirect.Op === duplicateOutput && targets.some((target) => !/^(?:\d+|-)$/.test(target.value ?? '')));
      // `curl URL > i.sh`: the download's output is saved in that file.
      if (isWrite && program !== undefined && downloadPrograms.has(program)) {
        for (const target of targets) if (target.value !== undefined) this.#downloads.add(this.#pathKey(target.value, state));
      }
      if (isWrite && targets.some((target) => isDeviceTarget(target.value))) {
        this.#add(shellNodeText(statement, state.source), {
          rule: 'device-write',
          reason: 'This redirection writes into a device file (a disk, partition or memory device), destroying its contents. Redirect to a regular file or /dev/null instead.',
        });
      }
      if (interpreter?.readsStandardInput !== true || program === undefined) continue;
      // `bash < <(curl …)`, `sh <<< "$(curl …)"`, and `bash <<EOF … EOF` feed code on standard input.
      if ((redirect.Op === readRedirection || redirect.Op === hereString) &&
          targets.some((target) => this.#fetchesRemoteCode(target.substitutions, state))) {
        this.#add(shellNodeText(statement, state.source), remoteScript(program));
      }
      if (interpreter.language === 'shell' && (redirect.Op === hereString || hereDocuments.has(redirect.Op))) {
        const body = hereDocuments.has(redirect.Op) ? redirect.Hdoc : redirect.Word;
        if (body !== null) {
          for (const field of state.resolver.resolveArgument(body)) this.#analyzeNested(field, state);
        }
      }
    }
  }

  /** `curl … | sh`: a download earlier in a pipeline feeds an interpreter reading standard input. */
  #visitPipeline(pipeline: ShellBinaryCmd, state: ScriptState): void {
    if (!pipeOperators.has(pipeline.Op)) return;
    const key = `${pipeline.Pos().Offset()}:${pipeline.End().Offset()}`;
    if (state.coveredPipelines.has(key)) return;
    const stages: ShellStmt[] = [];
    const flatten = (statement: ShellStmt): void => {
      const command = statement.Cmd;
      if (command !== null && shellNodeType(command) === 'BinaryCmd' && pipeOperators.has((command as ShellBinaryCmd).Op)) {
        state.coveredPipelines.add(`${command.Pos().Offset()}:${command.End().Offset()}`);
        flatten((command as ShellBinaryCmd).X);
        flatten((command as ShellBinaryCmd).Y);
      } else {
        stages.push(statement);
      }
    };
    flatten(pipeline.X);
    flatten(pipeline.Y);
    let downloaded = false;
    let printed: string | undefined;
    let found: ResolvedWord[] | undefined;
    for (const stage of stages) {
      const command = stage.Cmd;
      const previouslyPrinted = printed;
      const previouslyFound = found;
      printed = undefined;
      found = undefined;
      if (command === null || shellNodeType(command) !== 'CallExpr') continue;
      const words = (command as ShellCallExpr).Args.flatMap((word) => state.resolver.resolveArgument(word));
      const [programWord, ...rest] = unwrapCommand(words).words;
      const program = programName(programWord);
      if (program === undefined) continue;
      if (previouslyFound !== undefined && program === 'rm' && programName(words[0]) === 'xargs') {
        this.#checkPipedRemoval(previouslyFound, [programWord as ResolvedWord, ...rest], shellNodeText(pipeline, state.source), state);
      }
      // `echo .git | xargs rm -rf`: xargs runs its command with the words the previous stage printed.
      if (previouslyPrinted !== undefined && programName(words[0]) === 'xargs') {
        for (const command of xargsCommands(words, [programWord as ResolvedWord, ...rest], previouslyPrinted)) this.#analyzeWords(command, shellNodeText(pipeline, state.source), state);
      }
      if (program === 'find') found = rest;
      const interpreter = describeInterpreterInvocation(program, rest);
      if (downloaded && interpreter?.readsStandardInput === true) {
        this.#add(shellNodeText(pipeline, state.source), remoteScript(program));
        return;
      }
      // `echo 'rm -rf /' | sh`: the shell runs the text the previous stage printed.
      if (previouslyPrinted !== undefined && interpreter?.readsStandardInput === true && interpreter.language === 'shell') {
        this.analyzeScript(previouslyPrinted, state.resolver.child(), state.depth + 1);
      }
      if (downloadPrograms.has(program)) downloaded = true;
      printed = printedText(program, rest);
    }
  }

  /** `find … | xargs rm -rf` removes what find prints, as `find … -exec rm -rf {} +` would. */
  #checkPipedRemoval(findArguments: readonly ResolvedWord[], removal: readonly ResolvedWord[], text: string, state: ScriptState): void {
    const literal = (value: string): ResolvedWord => ({ value, pattern: value, script: value, substitutions: [] });
    const asExec = [...findArguments, literal('-exec'), ...removal, literal('{}'), literal('+')];
    for (const match of checkFind(asExec, this.#contextOf(state), (command) => programName(unwrapCommand(command).words[0]))) this.#add(text, match);
  }

  /** `:(){ :|:& };:` — a function that starts copies of itself in a pipe or in the background. */
  #visitFunction(declaration: ShellFuncDecl, state: ScriptState): void {
    const name = declaration.Name.Value;
    let forks = false;
    walkShellNodes(declaration.Body, (node) => {
      const type = shellNodeType(node);
      if (type === 'Stmt' && (node as ShellStmt).Background && callsFunction(node, name)) forks = true;
      if (type === 'BinaryCmd' && pipeOperators.has((node as ShellBinaryCmd).Op) &&
          (callsFunction((node as ShellBinaryCmd).X, name) || callsFunction((node as ShellBinaryCmd).Y, name))) {
        forks = true;
      }
      return !forks;
    });
    if (forks) {
      this.#add(shellNodeText(declaration, state.source), {
        rule: 'fork-bomb',
        reason: `The function ${name} starts copies of itself in a pipe or in the background, which multiplies processes until the machine stops responding. Do not run it.`,
      });
    }
  }

  /**
   * `while true; do sh -c '…' & done`: an endless loop that starts a background job on every turn
   * multiplies processes just like a fork bomb (nothing waits for them).
   */
  #visitLoop(loop: ShellWhileClause, state: ScriptState): void {
    if (!loop.Until && isAlwaysTrue(loop.Cond, state)) this.#checkEndlessLoop(loop, loop.Do, state);
  }

  #checkEndlessLoop(loop: ShellNode, body: readonly ShellStmt[], state: ScriptState): void {
    let background = false;
    let waits = false;
    for (const statement of body) {
      walkShellNodes(statement, (node) => {
        const type = shellNodeType(node);
        if (type === 'Stmt' && (node as ShellStmt).Background) background = true;
        if (type === 'CallExpr') {
          const first = (node as ShellCallExpr).Args[0];
          if (first !== undefined && state.resolver.resolveArgument(first)[0]?.value === 'wait') waits = true;
        }
        return true;
      });
    }
    if (background && !waits) {
      this.#add(shellNodeText(loop, state.source), {
        rule: 'fork-bomb',
        reason: 'This endless loop starts a new background process on every turn and never waits for them, which multiplies processes until the machine stops responding. Do not run it.',
      });
    }
  }

  /** The same path key for `curl -o i.sh` and a later `bash ./i.sh` (relative to where the script is). */
  #pathKey(file: string, state: ScriptState): string {
    const joined = file.startsWith('/') ? file : `${state.resolver.directory}/${file}`;
    return joined.startsWith('/') ? path.posix.normalize(joined) : joined.replace(/\/(?:\.\/)+/g, '/');
  }

  #isDownloaded(word: ResolvedWord, state: ScriptState): boolean {
    return word.value !== undefined && this.#downloads.size > 0 && this.#downloads.has(this.#pathKey(word.value, state));
  }

  #fetchesRemoteCode(substitutions: readonly ShellSubstitution[], state: ScriptState): boolean {
    return substitutions.some((substitution) =>
      substitution.statements.some((statement) => {
        let found = false;
        walkShellNodes(statement, (node) => {
          if (shellNodeType(node) === 'CallExpr') {
            const words = (node as ShellCallExpr).Args.flatMap((word) => state.resolver.resolveArgument(word));
            const program = programName(unwrapCommand(words).words[0]);
            if (program !== undefined && downloadPrograms.has(program)) found = true;
          }
          return !found;
        });
        return found;
      }),
    );
  }

  #add(command: string, match: RuleMatch): void {
    const text = command.trim();
    const key = `${match.rule}\u0000${text}`;
    if (!this.#findings.has(key)) this.#findings.set(key, { rule: match.rule, command: text, reason: match.reason });
  }
}

function remoteScript(interpreter: string): RuleMatch {
  return {
    rule: 'remote-script',
    reason: `This runs code downloaded from the network with ${interpreter} without anyone reading it first. Download it to a file, inspect it, and run it only if the user agrees.`,
  };
}

/** What `echo`/`printf` with static arguments print (only `%s` and `\\n` of printf are interpreted). */
/** The value of an assignment only known at run time. */
const UNKNOWN_VALUE = '\u0000unknown';

/**
 * git settings named in `NAME=value` assignments of a git command's environment: the keys of
 * `GIT_CONFIG_PARAMETERS` (`'gc.pruneExpire'='now'`) and each `GIT_CONFIG_KEY_<n>`; a value only
 * known at run time is `unknown` (it may name anything).
 */
function gitEnvironmentSettings(assignments: readonly string[]): string[] {
  const settings: string[] = [];
  for (const assignment of assignments) {
    const at = assignment.indexOf('=');
    if (at <= 0) continue;
    const name = assignment.slice(0, at);
    const value = assignment.slice(at + 1);
    if (name !== 'GIT_CONFIG_PARAMETERS' && !/^GIT_CONFIG_KEY_\d+$/.test(name)) continue;
    if (value.includes(UNKNOWN_VALUE)) settings.push('unknown');
    else if (name === 'GIT_CONFIG_PARAMETERS') for (const match of value.matchAll(/'([^']+)'(?:=|\s|$)/g)) settings.push(match[1] as string);
    else settings.push(value);
  }
  return settings;
}

/**
 * The commands `xargs` runs for `printed` on its input: with `-I R`/`-i`/`--replace`, one per
 * input line with `R` replaced; otherwise one with the blank-separated input words appended. At
 * most 32 input items are followed.
 */
function xargsCommands(xargsWords: readonly ResolvedWord[], command: readonly ResolvedWord[], printed: string): ResolvedWord[][] {
  const literal = (value: string): ResolvedWord => ({ value, pattern: value, script: value, substitutions: [] });
  let replace: string | undefined;
  for (let index = 1; index < xargsWords.length; index += 1) {
    const text = xargsWords[index]?.value;
    if (text === undefined || xargsWords[index] === command[0]) break;
    if (text === '-I') replace = xargsWords[index + 1]?.value;
    else if (text.startsWith('-I')) replace = text.slice(2);
    else if (text === '-i' || text === '--replace') replace = '{}';
    else if (text.startsWith('-i') || text.startsWith('--replace=')) replace = text.slice(text.startsWith('-i') ? 2 : '--replace='.length);
  }
  if (replace === undefined || replace === '') return [[...command, ...printed.split(/\s+/).filter((item) => item !== '').slice(0, 32).map(literal)]];
  const token = replace;
  return printed
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .slice(0, 32)
    .map((line) => command.map((word) => (word.value?.includes(token) === true ? literal(word.value.replaceAll(token, line)) : word)));
}

/** Whether `codeWord` is code given on the command line (`-c`, `-e`, `--eval`), not a script file's name. */
function isInlineCode(argumentsAfterProgram: readonly ResolvedWord[], codeWord: ResolvedWord): boolean {
  const at = argumentsAfterProgram.indexOf(codeWord);
  const before = at > 0 ? argumentsAfterProgram[at - 1]?.value : undefined;
  return before !== undefined && /^(?:-[A-Za-z]*[ceEpr]|--eval|--print)$/.test(before);
}

function printedText(program: string, words: readonly ResolvedWord[]): string | undefined {
  const values = words.map((word) => word.value);
  if (!values.every((value): value is string => value !== undefined)) return undefined;
  if (program === 'echo') {
    let first = 0;
    while (first < values.length && /^-[neE]+$/.test(values[first] as string)) first++;
    return values.slice(first).join(' ');
  }
  if (program === 'printf') {
    const [format, ...rest] = values[0] === '--' ? values.slice(1) : values;
    if (format === undefined) return undefined;
    let next = 0;
    return format.replace(/%s/g, () => rest[next++] ?? '').replace(/\\n/g, '\n');
  }
  return undefined;
}

/** `true`, `:`, `[ 1 ]`, `((1))`: a loop condition that never ends the loop. */
function isAlwaysTrue(condition: readonly ShellStmt[], state: ScriptState): boolean {
  if (condition.length !== 1) return false;
  const command = condition[0]?.Cmd ?? null;
  if (command === null) return false;
  const type = shellNodeType(command);
  if (type === 'ArithmCmd') return /^\(\(\s*[1-9]\d*\s*\)\)$/.test(shellNodeText(command, state.source));
  if (type !== 'CallExpr') return false;
  const values = (command as ShellCallExpr).Args.flatMap((word) => state.resolver.resolveArgument(word)).map((word) => word.value);
  return (values.length === 1 && (values[0] === 'true' || values[0] === ':')) || (values[0] === '[' && values.length === 3 && values[2] === ']' && values[1] !== '');
}

function callsFunction(node: ShellNode, name: string): boolean {
  let found = false;
  walkShellNodes(node, (child) => {
    if (shellNodeType(child) === 'CallExpr') {
      const first = (child as ShellCallExpr).Args[0];
      const parts = first?.Parts ?? [];
      if (parts.length > 0 && parts.every((part) => shellNodeType(part) === 'Lit') &&
          parts.map((part) => (part as ShellLit).Value).join('') === name) {
        found = true;
      }
    }
    return !found;
  });
  return found;
}
