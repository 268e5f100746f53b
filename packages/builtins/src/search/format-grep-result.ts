import type { SpillOutcome } from '../spill/spill-writer.js';
import { BoundedText } from './bounded-text.js';
import { formatSeconds, plural, savedListClause } from './format-search-footer.js';
import type { GrepTally } from './grep-collector.js';

/** What grep shows, before the footer: its body and whether anything counted is not in it. */
export interface GrepLayout {
  readonly body: string;
  readonly shown: number;
  readonly omitted: boolean;
}

function moreLines(count: number): string {
  return `(+${count} more matching ${count === 1 ? 'line' : 'lines'} in this file)`;
}

/**
 * The body of a grep result (§7.6): content mode groups the matching lines by file, each line
 * `{line}:{text}`, a file's unshown lines counted in `(+N more matching lines in this file)`;
 * the other modes list `path` or `path:count`. The body stays within the result budget; what does
 * not fit counts as omitted, like what the caps left out.
 */
export function layoutGrepResult(tally: GrepTally): GrepLayout {
  const text = new BoundedText();
  let shown = 0;
  let omitted = tally.omitted;
  if (tally.mode === 'content') {
    for (const [index, group] of tally.groups.entries()) {
      if (!text.add(index === 0 ? group.displayPath : `\n${group.displayPath}`)) {
        omitted = true;
        break;
      }
      let taken = 0;
      for (const line of group.lines) {
        if (!text.add(`${line.line}:${line.text}`)) break;
        taken += 1;
      }
      shown += taken;
      const more = group.more + group.lines.length - taken;
      if (more > 0 && !text.add(moreLines(more))) omitted = true;
      if (taken < group.lines.length) {
        omitted = true;
        break;
      }
    }
  } else {
    for (const entry of tally.listed) {
      if (!text.add(entry)) {
        omitted = true;
        break;
      }
      shown += 1;
    }
  }
  return { body: text.toString(), shown, omitted };
}

export interface GrepFooterFacts {
  readonly layout: GrepLayout;
  readonly tally: GrepTally;
  readonly timedOut: boolean;
  readonly limitMilliseconds: number;
  readonly spill: SpillOutcome | undefined;
  readonly spillMaxBytes: number;
}

/**
 * The footer of §7.6: exact totals and the full list when something was omitted, "at least" when
 * the time ran out (with the list so far, if it was saved); empty otherwise.
 */
export function grepFooter(facts: GrepFooterFacts): string {
  const { layout, tally } = facts;
  const saved = savedListClause(facts.spill, facts.spillMaxBytes);
  const lines = plural(tally.matchingLines, 'matching line');
  const files = plural(tally.matchingFiles, 'file');
  if (facts.timedOut) {
    const timeout = `[at least ${lines} in ${files}; search timed out after ${formatSeconds(facts.limitMilliseconds)} — narrow the path or glob]`;
    if (!layout.omitted || saved === '') return timeout;
    return `[showing ${layout.shown} of the matches found so far${saved.replace('full list', 'list so far')}]\n${timeout}`;
  }
  if (!layout.omitted) return '';
  switch (tally.mode) {
    case 'content':
      return `[showing ${layout.shown} of ${lines} in ${files}${saved}]`;
    case 'files_with_matches':
      return `[showing ${layout.shown} of ${plural(tally.matchingFiles, 'file')} with matches${saved}]`;
    case 'count':
      return `[showing ${layout.shown} of ${plural(tally.matchingFiles, 'file')} with matches, ${lines} in all${saved}]`;
  }
}
