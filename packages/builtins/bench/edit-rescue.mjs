// Rescue rates of edit's tolerant matching (docs/decisions/0021-edit-tolerant-matching-in-a-safe-order.md) on bench/edit-corpus.json: realistic failed
// edits, none of which an exact match finds. For each case the matching step runs as the tool
// runs it (the exact step of §7.3, then the tolerant levels in order) and the result is compared
// with the file the case expects; a case rescued to any other content counts as wrong, and so
// does one rescued that must stay refused. Prints the share each level rescues, exits 1 on a
// wrong rescue. The same cases run through the tool's `call` in src/edit/failed-edit-corpus.test.ts.
// Run with `pnpm --filter @openwork/builtins bench:edit` (it builds first).
import { readFile } from 'node:fs/promises';
import { applyReplacements } from '../dist/edit/apply-replacements.js';
import { findReplacements } from '../dist/edit/find-replacements.js';
import { matchEditEntry } from '../dist/edit/match-edit-entry.js';

const { cases } = JSON.parse(await readFile(new URL('./edit-corpus.json', import.meta.url), 'utf8'));

const LEVELS = [
  ['line-endings', 'line endings (CRLF vs LF)'],
  ['trailing-whitespace', 'trailing whitespace'],
  ['indentation', 'indentation shift of the block'],
  ['typography', 'typographic quotes, dashes, spaces'],
];

const rescuedBy = new Map(LEVELS.map(([level]) => [level, 0]));
const refused = { not_found: 0, ambiguous: 0 };
const byDrift = new Map();
const wrong = [];
let crlfReading = 0;

for (const entry of cases) {
  const eol = entry.eol ?? '\n';
  const content = entry.file.join(eol);
  const oldString = entry.oldString.join(entry.oldStringEol ?? '\n');
  const newString = entry.newString.join(entry.oldStringEol ?? '\n');
  if (content.includes(oldString)) {
    wrong.push(`${entry.id}: not a failed edit (the exact text is in the file)`);
    continue;
  }
  const drift = byDrift.get(entry.drift) ?? { total: 0, rescued: 0 };
  drift.total += 1;
  byDrift.set(entry.drift, drift);
  const match = matchEditEntry(content, { oldString, newString, replaceAll: false });
  if (!match.ok) {
    refused[match.reason] += 1;
    if ('level' in entry.expect) wrong.push(`${entry.id}: expected a rescue at ${entry.expect.level}, got ${match.reason}`);
    continue;
  }
  const result = applyReplacements(content, match.replacements).content;
  if (!('level' in entry.expect)) {
    wrong.push(`${entry.id}: must stay refused, but ${match.strategy} rescued it`);
    continue;
  }
  if (result !== entry.expect.file.join(eol)) {
    wrong.push(`${entry.id}: ${match.strategy} rescued it to the wrong content`);
    continue;
  }
  if (match.strategy !== entry.expect.level) wrong.push(`${entry.id}: rescued by ${match.strategy}, expected ${entry.expect.level}`);
  rescuedBy.set(match.strategy, (rescuedBy.get(match.strategy) ?? 0) + 1);
  if (findReplacements({ content, oldString, newString, replaceAll: false }).ok) crlfReading += 1;
  drift.rescued += 1;
}

const total = cases.length;
const share = (count) => `${((100 * count) / total).toFixed(0).padStart(3)} %`;
const row = (label, count) => `| ${label.padEnd(40)} | ${String(count).padStart(7)} | ${share(count)} |`;
const rescued = [...rescuedBy.values()].reduce((sum, count) => sum + count, 0);

console.log(`edit rescue rates: ${total} failed edits from bench/edit-corpus.json (an exact match finds none of them)\n`);
console.log(`| ${'level tried after the exact match fails'.padEnd(40)} | rescued | share |`);
console.log(`|${'-'.repeat(42)}|---------|-------|`);
for (const [level, label] of LEVELS) console.log(row(label, rescuedBy.get(level) ?? 0));
console.log(row('rescued in all', rescued));
console.log(row('refused: not found (closest text shown)', refused.not_found));
console.log(row('refused: ambiguous (lines listed)', refused.ambiguous));
console.log(row('rescued to a wrong result', wrong.length));
console.log(`\n${crlfReading} of the line-ending rescues are the exact step's CRLF reading (a CRLF file, oldString with \\n as read shows it).`);
console.log('\nby cause of the drift:');
for (const [drift, counts] of [...byDrift].sort()) console.log(`  ${drift.padEnd(24)} ${counts.rescued}/${counts.total} rescued`);
if (wrong.length > 0) {
  console.log('\nwrong:');
  for (const line of wrong) console.log(`  ${line}`);
  process.exitCode = 1;
}
