import type { ResolvedWord } from './shell-word-resolver.js';

/** How an interpreter is invoked: where its code comes from. */
export interface InterpreterInvocation {
  /** Shells run shell code, which the analysis can re-parse; others only matter for `curl | python`. */
  readonly language: 'shell' | 'other';
  /** Code is read from standard input (`sh`, `bash -s`, `python3 -`). */
  readonly readsStandardInput: boolean;
  /** The word holding code or naming the script: the `-c`/`-e` string or the script file. */
  readonly codeWord: ResolvedWord | undefined;
  /** Shell source to analyse as a script (`bash -c '…'`, `su -c '…'`, `eval …`). */
  readonly commandString: ResolvedWord | undefined;
}

const shells = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh']);
// Shells with a grammar of their own: they count for `curl | fish`, their code is not re-parsed.
const foreignShells = new Set(['fish', 'csh', 'tcsh', 'nu', 'elvish', 'xonsh', 'pwsh']);

interface ForeignSyntax {
  readonly codeOptions: string;
  readonly longCodeOptions?: readonly string[];
  readonly optionsWithArgument?: string;
  readonly longOptionsWithArgument?: readonly string[];
  /** Runs a named module instead of a script (`python -m http.server`). */
  readonly moduleOption?: string;
}

const foreignInterpreters: Readonly<Record<string, ForeignSyntax>> = {
  python: { codeOptions: 'c', optionsWithArgument: 'WX', moduleOption: 'm' },
  perl: { codeOptions: 'eE', optionsWithArgument: 'IMm' },
  ruby: { codeOptions: 'e', optionsWithArgument: 'rIC' },
  node: { codeOptions: 'ep', longCodeOptions: ['--eval', '--print'], optionsWithArgument: 'r', longOptionsWithArgument: ['--require', '--import', '--loader'] },
  php: { codeOptions: 'r', optionsWithArgument: 'dc' },
  lua: { codeOptions: 'e', optionsWithArgument: 'l' },
  deno: { codeOptions: '', longCodeOptions: [] },
  bun: { codeOptions: 'e', longCodeOptions: ['--eval'] },
};

/** The interpreter kind of a program name (`python3.12` is python), or undefined. */
function foreignSyntaxOf(program: string): ForeignSyntax | undefined {
  if (/^python[\d.]*$/.test(program) || program === 'pypy' || program === 'pypy3') return foreignInterpreters.python;
  if (program === 'nodejs') return foreignInterpreters.node;
  if (/^(?:perl|ruby|php|lua)[\d.]*$/.test(program)) return foreignInterpreters[program.replace(/[\d.]+$/, '')];
  return foreignInterpreters[program];
}

/** Describes how `program` gets its code, or undefined when it is not an interpreter. */
export function describeInterpreterInvocation(
  program: string,
  argumentsAfterProgram: readonly ResolvedWord[],
): InterpreterInvocation | undefined {
  if (shells.has(program) || foreignShells.has(program)) {
    const invocation = describeShellInvocation(argumentsAfterProgram);
    // `sh -n` / `-o noexec` reads commands without running them (a syntax check).
    if (invocation === undefined) return undefined;
    return shells.has(program) ? invocation : { ...invocation, language: 'other', commandString: undefined };
  }
  if (program === 'eval') {
    const joined = joinWords(argumentsAfterProgram);
    return { language: 'shell', readsStandardInput: false, codeWord: joined, commandString: joined };
  }
  if (program === 'source' || program === '.') {
    return { language: 'shell', readsStandardInput: false, codeWord: argumentsAfterProgram[0], commandString: undefined };
  }
  if (program === 'su') {
    const at = argumentsAfterProgram.findIndex((word) => word.value === '-c' || word.value === '--command');
    const commandString = at >= 0 ? argumentsAfterProgram[at + 1] : undefined;
    return { language: 'shell', readsStandardInput: false, codeWord: commandString, commandString };
  }
  const syntax = foreignSyntaxOf(program);
  return syntax === undefined ? undefined : describeForeignInvocation(syntax, argumentsAfterProgram);
}

function describeShellInvocation(words: readonly ResolvedWord[]): InterpreterInvocation | undefined {
  let index = 0;
  let commandFlag = false;
  let standardInputFlag = false;
  while (index < words.length) {
    const text = words[index]?.value;
    if (text === undefined) break;
    if (text === '--' || text === '-') {
      index++;
      break;
    }
    if (text.startsWith('--')) {
      index += text === '--rcfile' || text === '--init-file' ? 2 : 1;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(text)) {
      const letters = text.slice(1);
      if (text.startsWith('-') && letters.includes('n')) return undefined;
      if (text.startsWith('-') && /o/.test(letters) && words[index + 1]?.value === 'noexec') return undefined;
      if (text.startsWith('-') && letters.includes('c')) commandFlag = true;
      if (letters.includes('s')) standardInputFlag = true;
      index += /[oO]/.test(letters) ? 2 : 1;
      continue;
    }
    break;
  }
  const first = words[index];
  if (commandFlag) return { language: 'shell', readsStandardInput: false, codeWord: first, commandString: first };
  if (standardInputFlag || first === undefined) {
    return { language: 'shell', readsStandardInput: true, codeWord: undefined, commandString: undefined };
  }
  return { language: 'shell', readsStandardInput: false, codeWord: first, commandString: undefined };
}

function describeForeignInvocation(syntax: ForeignSyntax, words: readonly ResolvedWord[]): InterpreterInvocation {
  for (let index = 0; index < words.length; index++) {
    const word = words[index];
    const text = word?.value;
    if (word === undefined || text === undefined) {
      return { language: 'other', readsStandardInput: false, codeWord: word, commandString: undefined };
    }
    if (text === '-') return { language: 'other', readsStandardInput: true, codeWord: undefined, commandString: undefined };
    if (text.startsWith('--')) {
      const option = text.split('=')[0] ?? text;
      if (syntax.longCodeOptions?.includes(option)) {
        const codeWord = text.includes('=') ? word : words[index + 1];
        return { language: 'other', readsStandardInput: false, codeWord, commandString: undefined };
      }
      if (!text.includes('=') && syntax.longOptionsWithArgument?.includes(option)) index++;
      continue;
    }
    if (text.startsWith('-') && text.length > 1) {
      const letter = text[1] ?? '';
      if (syntax.codeOptions.includes(letter)) {
        const codeWord = text.length > 2 ? word : words[index + 1];
        return { language: 'other', readsStandardInput: false, codeWord, commandString: undefined };
      }
      if (letter === syntax.moduleOption) {
        return { language: 'other', readsStandardInput: false, codeWord: undefined, commandString: undefined };
      }
      if (text.length === 2 && syntax.optionsWithArgument?.includes(letter)) index++;
      continue;
    }
    return { language: 'other', readsStandardInput: false, codeWord: word, commandString: undefined };
  }
  return { language: 'other', readsStandardInput: true, codeWord: undefined, commandString: undefined };
}

/** `eval a b` runs the words joined with spaces. */
function joinWords(words: readonly ResolvedWord[]): ResolvedWord {
  const values = words.map((word) => word.value);
  return {
    value: values.every((value) => value !== undefined) ? values.join(' ') : undefined,
    pattern: words.map((word) => word.pattern).join(' '),
    script: words.map((word) => word.script).join(' '),
    substitutions: words.flatMap((word) => word.substitutions),
  };
}
