import { describe, expect, it } from 'vitest';
import { analyzeCommand } from '../index.js';
import type { CommandAnalysisContext, DangerousCommandRule } from '../index.js';

// History destruction (§3.6, docs/decisions/0059-sandbox-dangerous-command-analysis.md): commands that destroy unpushed work — the repository's history on disk
// or the refs and reflogs that name it — need the user's approval, in any spelling.

const context: CommandAnalysisContext = { workspaceRoots: ['/ws/project'], homeDirectory: '/home/dev', cwd: '/ws/project' };

const destroying: ReadonlyArray<readonly [string, DangerousCommandRule]> = [
  // The git folder itself, spelled every way the shell allows.
  ['rm -rf .git', 'git-history-delete'],
  ['rm -r -f ./.git/', 'git-history-delete'],
  ['rm --recursive --force .git', 'git-history-delete'],
  ['rm -rf /ws/project/.git', 'git-history-delete'],
  ['rm -rf "$PWD/.git"', 'git-history-delete'],
  ["rm -rf '.git'", 'git-history-delete'],
  ['rm -rf .g\\it', 'git-history-delete'],
  ['rm -rf .gi?', 'git-history-delete'],
  ['rm -rf .[g]it', 'git-history-delete'],
  ['rm -rf .g*', 'git-history-delete'],
  ['rm -rf src/../.git', 'git-history-delete'],
  ['rm -rf vendor/lib/.git', 'git-history-delete'],
  ['rm -rf */.git', 'git-history-delete'],
  ['G=.git; rm -rf $G', 'git-history-delete'],
  ['cd .git && rm -rf objects', 'git-history-delete'],
  ['cd /ws/project/.git; rm -rf refs logs', 'git-history-delete'],
  // Its history folders and files.
  ['rm -rf .git/objects .git/refs', 'git-history-delete'],
  ['rm -rf .git/objects/pack', 'git-history-delete'],
  ['rm -rf .git/refs/heads', 'git-history-delete'],
  ['rm .git/refs/heads/main', 'git-history-delete'],
  ['rm -f .git/packed-refs', 'git-history-delete'],
  ['rm -rf .git/logs', 'git-history-delete'],
  ['rm -rf .git/modules/vendor', 'git-history-delete'],
  ['rm -rf .git/lfs', 'git-history-delete'],
  ['rm -rf .git/*', 'git-history-delete'],
  ['rm -f .git/*', 'git-history-delete'],
  ['rm -rf .git/o*', 'git-history-delete'],
  // Through wrappers, nested shells and find.
  ["bash -c 'rm -rf .git'", 'git-history-delete'],
  ['sh -c "cd .git && rm -rf objects"', 'git-history-delete'],
  ['env -i rm -rf .git', 'git-history-delete'],
  ['xargs rm -rf .git', 'git-history-delete'],
  ['nohup nice rm -rf .git/refs', 'git-history-delete'],
  ["eval 'rm -rf .git'", 'git-history-delete'],
  ['echo "rm -rf .git" | sh', 'git-history-delete'],
  ['$(echo rm) -rf .git', 'git-history-delete'],
  ['find . -name .git -exec rm -rf {} +', 'git-history-delete'],
  ["find . -type d -name '.git' -exec rm -r {} \\;", 'git-history-delete'],
  ['find . -name .git -execdir /bin/rm -rf {} +', 'git-history-delete'],
  ['find .git -delete', 'git-history-delete'],
  ['find .git/objects -type f -delete', 'git-history-delete'],
  ["find . -path '*/.git/*' -delete", 'git-history-delete'],
  ["find . -path './.git/refs/*' -exec rm {} +", 'git-history-delete'],
  ["find . -name 'packed-refs' -delete", 'git-history-delete'],
  ["find . -name '.[g]it' -exec rm -rf {} +", 'git-history-delete'],
  ["find . -iname '.GI?' -exec rm -rf {} +", 'git-history-delete'],
  ["find . -name '*' -exec rm -rf {} +", 'git-history-delete'],
  ['find . -name .git -print0 | xargs -0 rm -rf', 'git-history-delete'],
  ['find . -type d -name .git | xargs -n1 rm -r', 'git-history-delete'],
  ['find / -maxdepth 1 | xargs rm -rf', 'recursive-delete'],
  // Git commands that delete refs and reflogs, or what only they kept.
  ['git update-ref -d refs/heads/main', 'git-discard-work'],
  ['git update-ref --delete refs/heads/feature', 'git-discard-work'],
  ['git for-each-ref --format="%(refname)" refs/heads | xargs -n1 git update-ref -d', 'git-discard-work'],
  ['git update-ref --stdin < ops.txt', 'git-discard-work'],
  ['git reflog expire --expire=now --all', 'git-discard-work'],
  ['git reflog expire --expire-unreachable=now --all', 'git-discard-work'],
  ['git gc --prune=now', 'git-discard-work'],
  ['git reflog expire --expire=now --all && git gc --prune=now --aggressive', 'git-discard-work'],
  ['git repack -a -d', 'git-discard-work'],
  ['git repack -adf', 'git-discard-work'],
  ['git prune --expire=now', 'git-discard-work'],
  ['git worktree remove --force ../feature', 'git-discard-work'],
  ['git worktree remove -f ../feature', 'git-discard-work'],
  ['git -C /ws/project worktree remove --force wt', 'git-discard-work'],
  ['git submodule deinit -f --all', 'git-discard-work'],
  ['git checkout --orphan fresh && git add -A && git commit -m init && git branch -D main', 'git-discard-work'],
  ['git checkout --orphan fresh && git commit -m init && git branch -M main', 'git-discard-work'],
  ['git switch --orphan fresh; git branch -M main', 'git-discard-work'],
  ['git branch -M fresh main', 'git-discard-work'],
  ['git branch --move --force fresh main', 'git-discard-work'],
  ['git -c alias.nuke="update-ref -d" nuke refs/heads/main', 'git-discard-work'],
  ["bash -c 'git update-ref -d HEAD'", 'git-discard-work'],
  ['git filter-repo --path secrets --invert-paths', 'git-discard-work'],
  ['git push --mirror origin', 'git-force-push'],
  // Other spellings of the same effects (judged by effect: any expiry date, any remover or mover
  // of a .git path, the plumbing under push).
  ['git -c gc.reflogExpire=now -c gc.pruneExpire=now gc', 'git-discard-work'],
  ['git -c gc.reflogExpireUnreachable=1.second.ago gc --auto', 'git-discard-work'],
  ['git -c gc.pruneExpire=now maintenance run --task=gc', 'git-discard-work'],
  ['git -c "$SETTING" gc', 'git-discard-work'],
  ['git config gc.reflogExpire now', 'git-discard-work'],
  ["GIT_CONFIG_PARAMETERS=\"'gc.reflogexpire'='now' 'gc.pruneexpire'='now'\" git gc", 'git-discard-work'],
  ['GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=gc.pruneExpire GIT_CONFIG_VALUE_0=now git gc', 'git-discard-work'],
  ['env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=gc.reflogExpire GIT_CONFIG_VALUE_0=now git gc', 'git-discard-work'],
  ['GIT_CONFIG_PARAMETERS="$P" git gc', 'git-discard-work'],
  ['git config --local gc.pruneExpire now && git gc', 'git-discard-work'],
  ['git config core.logAllRefUpdates false', 'git-discard-work'],
  ['git reflog expire --expire=1.minute.ago --all', 'git-discard-work'],
  ['git reflog expire --expire="2 days ago" --all', 'git-discard-work'],
  ['git reflog expire --expire 2020-01-01 --all', 'git-discard-work'],
  ['git reflog expire --expire=90.days.ago --all', 'git-discard-work'],
  ['git gc --prune=1.second.ago', 'git-discard-work'],
  ['git gc --prune=2.weeks.ago', 'git-discard-work'],
  ['mv .git /tmp/backup', 'git-history-delete'],
  ['mv .git .git-old', 'git-history-delete'],
  ['mv -f ./.git/objects /tmp/o', 'git-history-delete'],
  ['mv -t /tmp .git', 'git-history-delete'],
  ["python3 -c 'import shutil; shutil.rmtree(\".git/objects\")'", 'git-history-delete'],
  ['python3 -c \'import shutil; shutil.rmtree(".git")\'', 'git-history-delete'],
  ['python3 -c \'import os; os.rename(".git", "/tmp/g")\'', 'git-history-delete'],
  ['node -e \'require("fs").rmSync(".git", { recursive: true })\'', 'git-history-delete'],
  ["perl -MFile::Path=remove_tree -e 'remove_tree(\".git/refs\")'", 'git-history-delete'],
  ["ruby -rfileutils -e 'FileUtils.rm_rf(\".git\")'", 'git-history-delete'],
  ['echo .git | xargs rm -rf', 'git-history-delete'],
  ['printf ".git\\n" | xargs -I{} rm -rf {}', 'git-history-delete'],
  ['echo .git | xargs -I % mv % /tmp/', 'git-history-delete'],
  ['unlink .git/packed-refs', 'git-history-delete'],
  ['shred -u .git/packed-refs', 'git-history-delete'],
  ['git send-pack --force origin main', 'git-force-push'],
  ['git send-pack origin +main:main', 'git-force-push'],
  ['git send-pack --mirror origin', 'git-force-push'],
];

const repairing: readonly string[] = [
  'rm -f .git/index.lock',
  'rm -rf .git/rebase-merge',
  'rm -rf .git/rebase-apply',
  'rm -f .git/hooks/pre-commit',
  'rm -rf .git/hooks',
  'rm -f .git/*.lock',
  'rm -rf .git/refs/remotes/origin/stale',
  'rm .git',
  'rm -rf .github',
  'rm -rf .gitignore',
  'rm -rf dist/.gitkeep',
  'rm -rf objects refs',
  'rm -rf node_modules/.cache',
  "find . -name '*.orig' -delete",
  'find . -type d -name .git -prune -o -name "*.tmp" -delete',
  "find . -name '.git' -print",
  'find . -name .git | xargs -n1 dirname',
  "find . -name '*.log' | xargs rm -f",
  'git update-ref refs/heads/main HEAD',
  'git reflog expire --expire=never --all',
  'git reflog expire --all',
  'git gc',
  'git gc --prune=never',
  'git -c user.name=dev commit -m wip',
  'git -c gc.auto=0 gc',
  'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=dev git commit -m wip',
  'GIT_CONFIG_PARAMETERS="$P" git status',
  'git config gc.auto 0',
  'mv .gitignore .gitignore.old',
  'mv notes.txt .git-notes.txt',
  "python3 -c 'print(open(\".gitignore\").read())'",
  "python3 -c 'import os; os.remove(\".git/index.lock\")'",
  "python3 -c 'import shutil; shutil.rmtree(\"build\")'",
  'echo build | xargs rm -rf',
  'echo .git | xargs ls',
  'git send-pack origin main',
  'git prune -n',
  'git repack -A -d',
  'git repack -d',
  'git worktree remove ../feature',
  'git worktree prune',
  'git worktree add ../feature feature',
  'git submodule deinit vendor',
  'git checkout --orphan gh-pages',
  'git checkout --orphan gh-pages && git rm -rf . && git commit --allow-empty -m pages',
  'git branch -M main',
  'git branch -m old new',
  'git switch -c feature',
];

describe('history destruction is flagged', () => {
  it.each(destroying)('%j → %s', (command, rule) => {
    const analysis = analyzeCommand(command, context);
    expect(analysis.findings.map((finding) => finding.rule)).toContain(rule);
  });
});

describe('repairs of a git folder stay quiet', () => {
  it.each(repairing)('%j', (command) => {
    expect(analyzeCommand(command, context)).toEqual({ dangerous: false, findings: [] });
  });
});

describe('the history finding', () => {
  it('names what is lost and what to do instead', () => {
    const [finding] = analyzeCommand('rm -rf .git/objects', context).findings;
    expect(finding).toMatchObject({ rule: 'git-history-delete', command: 'rm -rf .git/objects' });
    expect(finding?.reason).toMatch(/\.git\/objects \(the commits themselves\)/);
    expect(finding?.reason).toMatch(/never pushed are lost/);
    expect(finding?.reason).toMatch(/git gc/);
  });

  it('one finding per command, naming each history folder it deletes', () => {
    const analysis = analyzeCommand('rm -rf .git/objects .git/refs', context);
    expect(analysis.findings).toHaveLength(1);
    expect(analysis.findings[0]?.reason).toMatch(/\.git\/objects .* and \.git\/refs /);
  });
});
