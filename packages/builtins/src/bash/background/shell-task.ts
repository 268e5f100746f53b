/** Programs that read commands from their input: shells, and ssh (a remote shell). */
const SHELL_PROGRAMS: ReadonlySet<string> = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'tcsh', 'csh', 'busybox', 'ssh']);

/**
 * Text typed into a shell gets bash's dangerous-command analysis (docs/decisions/0032-background-bash-tasks.md): whether a
 * task's command starts a shell that reads what is typed — a shell word not followed by a `-c`
 * style option (`bash`, `exec bash --norc -i`, `… | sh`, `ssh host`; not `bash -lc 'npm run dev'`).
 * Deliberately wide: every word counts, quoted or not (`bash -c 'bash -i'` is a shell task), since
 * a task wrongly taken for a shell only means its input is checked, while the converse would let a
 * dangerous command through unchecked. Text typed into another program (`python3 -i`, `bc`) is not
 * shell syntax, so it is not analysed.
 */
export function isShellTask(command: string): boolean {
  const words = command.split(/[\s;|&()`'"<>{}]+/).filter((word) => word !== '');
  return words.some((word, index) => {
    const name = word.slice(word.lastIndexOf('/') + 1);
    if (!SHELL_PROGRAMS.has(name)) return false;
    const next = words[index + 1];
    return next === undefined || !/^-[a-zA-Z]*c[a-zA-Z]*$/.test(next);
  });
}
