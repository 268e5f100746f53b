import type { CommandAnalysis, CommandAnalysisContext } from './command-analysis.js';
import { CommandAnalyzer } from './command-analyzer.js';
import { ShellWordResolver } from './shell-word-resolver.js';

/**
 * Finds dangerous operations in a bash command before it runs (architecture §3.6, spec §6.1 `danger`).
 * The command is parsed with a real shell parser, and every command that would run is checked —
 * inside `$(…)`, backticks, `<(…)`, pipes, subshells, functions, `bash -c`/`eval` strings and
 * wrappers such as `sudo`, `env`, `xargs`. Never throws for user input: a command that cannot be
 * parsed is itself a finding (`unparseable`).
 */
export function analyzeCommand(command: string, context: CommandAnalysisContext = {}): CommandAnalysis {
  const analyzer = new CommandAnalyzer(context);
  const resolver = new ShellWordResolver({
    homeDirectory: context.homeDirectory,
    workingDirectory: context.cwd ?? context.workspaceRoots?.[0],
  });
  analyzer.analyzeScript(command, resolver, 0);
  const findings = analyzer.findings;
  return { dangerous: findings.length > 0, findings };
}
