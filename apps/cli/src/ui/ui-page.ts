/**
 * The page `openwork ui` serves: one HTML shell, one script, one style sheet, written by hand.
 * The script builds every element with `createElement` and fills it with `textContent` only —
 * nothing from the store is ever parsed as HTML (and the Content-Security-Policy's Trusted Types
 * rule makes `innerHTML` throw). The token travels in the page's URL and in the
 * `x-openwork-token` header of every request the script makes.
 */

/** The HTML shell; `token` is ours (base64url), never the store's. */
export function pageHtml(token: string): string {
  if (!/^[A-Za-z0-9_-]+$/u.test(token)) throw new TypeError('pageHtml: the token must be base64url');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>openwork ui</title>',
    `<link rel="icon" href="/icon.svg?token=${token}">`,
    `<link rel="stylesheet" href="/app.css?token=${token}">`,
    `<script src="/app.js?token=${token}" defer></script>`,
    '</head><body><header id="top"><a id="home" href="#/">openwork ui</a><span id="where"></span>',
    '<label id="layout-label"><input type="checkbox" id="side-by-side"> side by side</label></header>',
    '<main id="main"><p>Loading…</p></main></body></html>',
  ].join('\n');
}

/** The tab's icon (served with the token too, so the browser asks for nothing without it). */
export const PAGE_ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0969da"/><path d="M4 8h8M8 4v8" stroke="#fff" stroke-width="2"/></svg>';

export const PAGE_STYLE = String.raw`
:root { color-scheme: light dark; --add: #e6ffec; --del: #ffebe9; --addn: #ccffd8; --deln: #ffd7d5; --muted: #656d76; --line: #d0d7de; --warn: #fff8c5; --bad: #ffebe9; }
@media (prefers-color-scheme: dark) { :root { --add: #12261e; --del: #25171c; --addn: #1f4a2c; --deln: #4c1d1d; --muted: #8d96a0; --line: #30363d; --warn: #3b2e00; --bad: #3d1214; } }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; }
header { position: sticky; top: 0; display: flex; gap: 1em; align-items: center; padding: .5em 1em; border-bottom: 1px solid var(--line); background: Canvas; z-index: 1; }
header #home { font-weight: 600; text-decoration: none; }
header #where { flex: 1; color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
main { padding: 1em; max-width: 110em; }
h1 { font-size: 1.3em; margin: .2em 0; }
input[type=search] { width: 30em; max-width: 100%; padding: .3em .5em; }
table.sessions { border-collapse: collapse; width: 100%; margin-top: .8em; }
table.sessions th, table.sessions td { text-align: left; padding: .3em .6em; border-bottom: 1px solid var(--line); vertical-align: top; }
table.sessions td.num { text-align: right; font-variant-numeric: tabular-nums; }
.muted { color: var(--muted); }
.mono, pre, code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: .3em 0; padding: .5em; border: 1px solid var(--line); border-radius: 4px; max-height: 30em; overflow: auto; }
section.box { border: 1px solid var(--line); border-radius: 6px; padding: .6em .8em; margin: .8em 0; }
section.box > h2 { font-size: 1em; margin: 0 0 .4em; }
.entry { border-left: 3px solid var(--line); padding: .2em .8em; margin: .6em 0; }
.entry.user { border-color: #8250df; }
.entry.assistant { border-color: #0969da; }
.call { border: 1px solid var(--line); border-radius: 6px; margin: .5em 0; padding: .5em .7em; }
.call-head { display: flex; gap: .8em; align-items: baseline; flex-wrap: wrap; }
.tool { font-weight: 600; }
.status { padding: 0 .5em; border-radius: 1em; border: 1px solid var(--line); }
.status.succeeded { background: var(--add); } .status.failed, .status.denied { background: var(--bad); } .status.pending, .status.cancelled, .status.outcome_unknown { background: var(--warn); }
.change { border: 1px solid var(--line); border-radius: 4px; margin: .5em 0; }
.change-head { display: flex; gap: .8em; align-items: center; padding: .3em .6em; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
.change-head .path { font-weight: 600; overflow-wrap: anywhere; }
.change[data-state=undone] .change-head { background: var(--warn); }
table.diff { border-collapse: collapse; width: 100%; table-layout: fixed; }
table.diff td { padding: 0 .4em; white-space: pre-wrap; overflow-wrap: anywhere; vertical-align: top; }
table.diff td.n { width: 4.5em; text-align: right; color: var(--muted); user-select: none; }
table.diff td.s { width: 1.5em; user-select: none; }
table.diff tr.add td { background: var(--add); } table.diff tr.del td { background: var(--del); }
table.diff td.add { background: var(--add); } table.diff td.del { background: var(--del); }
table.diff tr.hunk td { color: var(--muted); background: transparent; padding-top: .3em; }
.notice { padding: .4em .6em; margin: .4em 0; border-radius: 4px; }
.notice.ok { background: var(--add); } .notice.conflict, .notice.error { background: var(--bad); }
button { cursor: pointer; }
.plan li[data-status=completed] { text-decoration: line-through; color: var(--muted); }
.plan li[data-status=in_progress] { font-weight: 600; }
`;

export const PAGE_SCRIPT = String.raw`'use strict';
(function () {
  var token = new URLSearchParams(location.search).get('token') || '';
  var main = document.getElementById('main');
  var where = document.getElementById('where');
  var sideBySide = document.getElementById('side-by-side');
  var state = { view: null, search: '', offset: 0, sessionId: null, pages: [], version: null, notices: {}, timer: null, busy: false, listKey: null };

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function add(parent) { for (var i = 1; i < arguments.length; i++) { if (arguments[i]) parent.appendChild(arguments[i]); } return parent; }
  function when(iso) { var d = new Date(iso); return isNaN(d.getTime()) ? String(iso) : d.toLocaleString(); }
  function duration(ms) { if (ms === null || ms === undefined) return ''; return ms < 1000 ? ms + ' ms' : (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s'; }
  function shortId(id) { var m = /^(.+)(\.\d+)$/.exec(id); if (m) return shortId(m[1]) + m[2]; return id.slice(0, id.indexOf('_') + 1 + 8); }

  function api(path, body) {
    var init = { headers: { 'x-openwork-token': token }, cache: 'no-store' };
    if (body !== undefined) { init.method = 'POST'; init.headers['content-type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch(path, init).then(function (response) {
      return response.json().then(function (data) { return { status: response.status, data: data }; });
    });
  }

  function route() {
    var hash = location.hash || '#/';
    var match = /^#\/s\/(.+)$/.exec(hash);
    clearTimeout(state.timer);
    state.notices = {};
    if (match) { state.view = 'session'; state.sessionId = decodeURIComponent(match[1]); state.pages = []; state.version = null; loadSession(true); }
    else { state.view = 'list'; state.sessionId = null; state.listKey = null; showList(); }
  }

  // Sessions list ----------------------------------------------------------------------------
  function showList() {
    where.textContent = 'sessions';
    main.replaceChildren();
    var search = el('input'); search.type = 'search'; search.placeholder = 'search by workspace'; search.value = state.search; search.id = 'search';
    var timer = null;
    search.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(function () { state.search = search.value; state.offset = 0; state.listKey = null; loadList(); }, 200); });
    add(main, el('h1', null, 'Sessions'), search, el('div', null, null));
    main.lastChild.id = 'list';
    loadList();
  }

  function loadList() {
    if (state.view !== 'list') return;
    clearTimeout(state.timer);
    api('/api/sessions?search=' + encodeURIComponent(state.search) + '&offset=' + state.offset).then(function (answer) {
      if (state.view !== 'list') return;
      var key = JSON.stringify(answer.data);
      if (key !== state.listKey) { state.listKey = key; renderList(answer.data); }
      state.timer = setTimeout(loadList, 2000);
    }, function () { state.timer = setTimeout(loadList, 4000); });
  }

  function renderList(data) {
    var list = document.getElementById('list');
    if (!list) return;
    list.replaceChildren();
    if (data.error) { add(list, el('p', 'notice error', data.error)); return; }
    if (data.sessions.length === 0) { add(list, el('p', 'muted', state.search ? 'No session has a workspace matching that.' : 'No sessions stored yet.')); return; }
    var table = el('table', 'sessions');
    var head = add(el('tr'), el('th', null, 'Workspace'), el('th', null, 'Mode'), el('th', null, 'Agent'), el('th', null, 'Started'), el('th', null, 'Last activity'), el('th', null, 'Calls'), el('th', null, 'Changes'));
    add(table, add(el('thead'), head));
    var body = el('tbody');
    data.sessions.forEach(function (session) {
      var row = el('tr'); row.dataset.sessionId = session.id;
      var link = el('a', 'mono', session.workspaceRoots.join(', ')); link.href = '#/s/' + encodeURIComponent(session.id);
      var cell = add(el('td'), link, el('div', 'muted mono', shortId(session.id) + (session.child ? ' (sub-agent)' : '')));
      add(row, cell, el('td', null, session.mode), el('td', null, session.agentRole), el('td', null, when(session.createdAt)), el('td', null, when(session.updatedAt)),
        el('td', 'num', session.calls), el('td', 'num', session.changes + (session.undone ? ' (' + session.undone + ' undone)' : '')));
      add(body, row);
    });
    add(list, add(table, body));
    var pager = el('p', 'muted', (data.offset + 1) + '–' + (data.offset + data.sessions.length) + ' of ' + data.total + ' ');
    if (data.offset > 0) { var prev = el('button', null, 'Newer'); prev.addEventListener('click', function () { state.offset = Math.max(0, state.offset - data.pageSize); state.listKey = null; loadList(); }); add(pager, prev); }
    if (data.offset + data.sessions.length < data.total) { var next = el('button', null, 'Older'); next.addEventListener('click', function () { state.offset += data.pageSize; state.listKey = null; loadList(); }); add(pager, next); }
    add(list, pager);
  }

  // One session ------------------------------------------------------------------------------
  function loadSession(first) {
    var id = state.sessionId;
    var pagesWanted = Math.max(1, state.pages.length);
    var pages = [];
    function fetchPage(after) {
      return api('/api/sessions/' + encodeURIComponent(id) + '?after=' + after).then(function (answer) {
        if (answer.status !== 200) throw new Error(answer.data.error || ('status ' + answer.status));
        pages.push(answer.data);
        if (pages.length < pagesWanted && answer.data.nextAfter !== null) return fetchPage(answer.data.nextAfter);
      });
    }
    return fetchPage(0).then(function () {
      if (state.sessionId !== id) return;
      state.pages = pages; state.version = pages[0].version;
      renderSession();
      schedulePoll();
    }, function (error) {
      if (state.sessionId !== id) return;
      main.replaceChildren(add(el('p', 'notice error', 'Could not load the session: ' + error.message)));
      if (first) schedulePoll();
    });
  }

  function schedulePoll() {
    clearTimeout(state.timer);
    state.timer = setTimeout(function () {
      if (state.view !== 'session' || state.busy) { schedulePoll(); return; }
      var id = state.sessionId;
      api('/api/sessions/' + encodeURIComponent(id) + '/version').then(function (answer) {
        if (state.sessionId !== id) return;
        if (answer.data.version !== state.version) loadSession(false); else schedulePoll();
      }, schedulePoll);
    }, 1500);
  }

  function renderSession() {
    var first = state.pages[0];
    var session = first.session;
    where.textContent = session.workspaceRoots.join(', ');
    var scroll = window.scrollY;
    main.replaceChildren();
    var info = el('section', 'box');
    add(info, el('h1', null, 'Session ' + shortId(session.id)));
    add(info, el('div', 'mono', session.id));
    add(info, el('div', null, 'Workspace: ' + session.workspaceRoots.join(', ')));
    add(info, el('div', 'muted', 'mode ' + session.mode + ' · agent ' + session.agentRole + ' · started ' + when(session.createdAt) + ' · last activity ' + when(session.updatedAt) + ' · ' + session.messageCount + ' messages'));
    if (session.parent) { var up = el('a', null, 'parent session ' + shortId(session.parent)); up.href = '#/s/' + encodeURIComponent(session.parent); add(info, add(el('div'), up)); }
    add(main, info);
    if (first.plan) add(main, renderPlan(first.plan));
    if (first.tasks.length > 0) add(main, renderTasks(first.tasks));
    if (first.agents.length > 0) add(main, renderAgents(first.agents));
    var timeline = el('section', 'timeline'); timeline.id = 'timeline';
    var cards = {};
    state.pages.forEach(function (page) { page.entries.forEach(function (entry) { renderEntry(timeline, cards, entry); }); });
    if (timeline.childNodes.length === 0) add(timeline, el('p', 'muted', 'No calls yet.'));
    add(main, add(el('h2', null, 'Timeline')), timeline);
    var last = state.pages[state.pages.length - 1];
    if (last.nextAfter !== null) {
      var more = el('button', null, 'Load more'); more.id = 'more';
      more.addEventListener('click', function () {
        more.disabled = true;
        api('/api/sessions/' + encodeURIComponent(state.sessionId) + '?after=' + last.nextAfter).then(function (answer) { state.pages.push(answer.data); renderSession(); });
      });
      add(main, more);
    }
    window.scrollTo(0, scroll);
  }

  function renderPlan(plan) {
    var box = add(el('section', 'box plan'), el('h2', null, 'Plan (updated ' + when(plan.updatedAt) + ')'));
    if (plan.explanation) add(box, el('p', null, plan.explanation));
    var list = el('ol');
    plan.steps.forEach(function (step) { var item = el('li', null, step.step + ' — ' + step.status.replace('_', ' ')); item.dataset.status = step.status; add(list, item); });
    return add(box, list);
  }

  function renderTasks(tasks) {
    var box = add(el('section', 'box tasks'), el('h2', null, 'Background tasks'));
    tasks.forEach(function (task) {
      var head = el('div', null, task.taskId + ' · ' + task.state + (task.exitCode !== null ? ' (exit ' + task.exitCode + ')' : '') + ' · started ' + when(task.startedAt) + (task.endedAt ? ' · ended ' + when(task.endedAt) : ''));
      add(box, head, el('pre', null, task.command));
      if (task.description) add(box, el('div', 'muted', task.description));
      if (task.problem) add(box, el('div', 'notice error', task.problem));
      if (task.outputTail) { var details = add(el('details'), el('summary', null, 'output (tail)'), el('pre', null, task.outputTail)); add(box, details); }
    });
    return box;
  }

  function renderAgents(agents) {
    var box = add(el('section', 'box agents'), el('h2', null, 'Sub-agents'));
    agents.forEach(function (agent) {
      var link = el('a', 'mono', shortId(agent.id)); link.href = '#/s/' + encodeURIComponent(agent.id);
      add(box, add(el('div'), link, document.createTextNode(' · ' + agent.role + ' · ' + agent.state + ' · round ' + agent.round + ' · ' + when(agent.updatedAt))));
      add(box, el('pre', null, agent.prompt));
      if (agent.result !== null) add(box, add(el('details'), el('summary', null, 'result'), el('pre', null, agent.result)));
    });
    return box;
  }

  function renderEntry(timeline, cards, entry) {
    if (entry.type === 'user') {
      add(timeline, add(el('div', 'entry user'), el('div', 'muted', (entry.origin === 'agent_mailbox' ? 'sub-agent result' : 'user') + ' · ' + when(entry.at)), el('pre', null, entry.text + omitted(entry.omitted))));
      return;
    }
    if (entry.type === 'assistant') {
      var box = el('div', 'entry assistant');
      add(box, el('div', 'muted', (entry.direct ? 'direct call' : 'model') + ' · ' + when(entry.at)));
      if (entry.text) add(box, el('pre', null, entry.text + omitted(entry.omitted)));
      entry.calls.forEach(function (call) { add(box, callCard(cards, call.id, call.toolId, call)); });
      add(timeline, box);
      return;
    }
    var card = cards[entry.callId];
    if (!card) { card = callCard(cards, entry.callId, entry.toolId, null); add(timeline, add(el('div', 'entry assistant'), card)); }
    fillResult(card, entry);
  }

  function omitted(count) { return count > 0 ? '\n… ' + count + ' more characters not shown' : ''; }

  function callCard(cards, id, toolId, call) {
    var card = el('div', 'call'); card.dataset.callId = id;
    var head = add(el('div', 'call-head'), el('span', 'tool', toolId), el('span', 'muted mono', shortId(id)), el('span', 'status pending', 'running or no result'));
    add(card, head);
    if (call) {
      if (call.approval) {
        var asked = add(el('div', 'notice approval'), el('div', null, 'Asked the person to approve: ' + call.approval.paths.join(', ')));
        if (call.approval.justification) add(asked, el('div', 'muted', 'why: ' + call.approval.justification));
        add(card, asked);
      }
      add(card, add(el('details'), el('summary', null, 'input'), el('pre', null, call.input)));
    }
    cards[id] = card;
    return card;
  }

  function fillResult(card, entry) {
    var status = card.querySelector('.status');
    status.className = 'status ' + entry.status; status.textContent = entry.status;
    var head = card.querySelector('.call-head');
    add(head, el('span', 'muted', duration(entry.durationMs)));
    if (entry.sandboxDenied) add(head, el('span', 'muted', 'sandbox denied something'));
    if (entry.approvalAnswer) add(card, el('div', 'notice error', 'Approval: ' + entry.approvalAnswer));
    var result = add(el('details', 'result'), el('summary', null, 'what the model saw' + (entry.images ? ' (+' + entry.images + ' image' + (entry.images > 1 ? 's' : '') + ', not shown)' : '')), el('pre', 'model-text', entry.text + omitted(entry.omitted)));
    if (entry.text.length < 600 || entry.status !== 'succeeded') result.open = true;
    add(card, result);
    if (entry.spillPaths.length > 0) add(card, el('div', 'muted mono', 'full output kept in: ' + entry.spillPaths.join(', ')));
    if (entry.changeSummary) add(card, el('div', 'muted', entry.changeSummary));
    entry.otherArtifacts.forEach(function (artifact) { add(card, add(el('details', 'artifact'), el('summary', null, 'record: ' + artifact.kind), el('pre', null, artifact.json))); });
    if (entry.changes.length === 0) return;
    var applied = entry.changes.filter(function (change) { return !change.undone && change.undoable; });
    var undone = entry.changes.filter(function (change) { return change.undone && change.undoable; });
    var notice = state.notices['call:' + entry.callId];
    if (notice) add(card, renderNotice(notice));
    if (entry.changes.length > 1 && (applied.length > 0 || undone.length > 0)) {
      var actions = el('div', 'call-actions');
      if (applied.length > 0) add(actions, actionButton('Undo everything this call changed', 'undo', applied.map(function (c) { return c.changeId; }), 'call:' + entry.callId));
      if (undone.length > 0) add(actions, actionButton('Reapply everything this call changed', 'reapply', undone.map(function (c) { return c.changeId; }), 'call:' + entry.callId));
      add(card, actions);
    }
    entry.changes.forEach(function (change) { add(card, renderChange(change)); });
  }

  function actionButton(label, operation, changeIds, noticeKey) {
    var button = el('button', operation, label);
    button.addEventListener('click', function () {
      button.disabled = true; state.busy = true;
      api('/api/sessions/' + encodeURIComponent(state.sessionId) + '/' + operation, { changeIds: changeIds }).then(function (answer) {
        var data = answer.data;
        if (data.ok) state.notices[noticeKey] = { kind: 'ok', text: (operation === 'undo' ? 'Undone: ' : 'Reapplied: ') + data.changeIds.map(shortId).join(', ') };
        else {
          var lines = [operation + ' refused (' + (data.code || answer.status) + '): ' + (data.message || data.error || '') + ' Nothing was overwritten.'];
          (data.conflicts || []).forEach(function (conflict) { lines.push('conflict: ' + conflict.path + ' — ' + conflict.reason); });
          state.notices[noticeKey] = { kind: data.code === 'conflict' ? 'conflict' : 'error', text: lines.join('\n') };
        }
      }, function (error) { state.notices[noticeKey] = { kind: 'error', text: String(error) }; }).then(function () { state.busy = false; return loadSession(false); });
    });
    return button;
  }

  function renderNotice(notice) { var box = el('pre', 'notice ' + notice.kind, notice.text); return box; }

  function renderChange(change) {
    var box = el('div', 'change'); box.dataset.changeId = change.changeId; box.dataset.state = change.undone ? 'undone' : 'applied';
    var head = el('div', 'change-head');
    add(head, el('span', 'path mono', change.path), el('span', 'muted', change.entry === 'file' ? change.kind : change.entry + ' ' + change.kind));
    if (change.entry === 'file' && change.note === null) add(head, el('span', 'muted', '+' + change.additions + ' −' + change.deletions));
    add(head, el('span', 'change-state', change.undone ? 'undone' : 'applied'), el('span', 'muted mono', shortId(change.changeId)));
    if (change.undoable) add(head, change.undone ? actionButton('Reapply', 'reapply', [change.changeId], 'change:' + change.changeId) : actionButton('Undo', 'undo', [change.changeId], 'change:' + change.changeId));
    add(box, head);
    var notice = state.notices['change:' + change.changeId];
    if (notice) add(box, renderNotice(notice));
    if (change.note) add(box, el('div', 'muted', change.note));
    if (change.hunks.length > 0) add(box, sideBySide.checked ? splitDiff(change) : unifiedDiff(change));
    if (change.omittedLines > 0) {
      var more = el('button', null, change.omittedLines + ' more lines: show');
      more.addEventListener('click', function () {
        more.disabled = true;
        api('/api/sessions/' + encodeURIComponent(state.sessionId) + '/changes/' + encodeURIComponent(change.changeId)).then(function (answer) { if (answer.status === 200) box.replaceWith(renderChange(answer.data)); });
      });
      add(box, more);
    }
    return box;
  }

  function unifiedDiff(change) {
    var table = el('table', 'diff mono');
    change.hunks.forEach(function (hunk) {
      add(table, add(el('tr', 'hunk'), el('td', 'n'), el('td', 'n'), el('td', 's'), el('td', null, hunk.header)));
      hunk.lines.forEach(function (line) {
        var row = el('tr', line[0] === '+' ? 'add' : line[0] === '-' ? 'del' : 'ctx');
        add(row, el('td', 'n', line[1]), el('td', 'n', line[2]), el('td', 's', line[0] === '\\' ? '' : line[0]), el('td', 'text', line[3]));
        add(table, row);
      });
    });
    return table;
  }

  function splitDiff(change) {
    var table = el('table', 'diff split mono');
    change.hunks.forEach(function (hunk) {
      add(table, add(el('tr', 'hunk'), el('td', 'n'), el('td', null, hunk.header), el('td', 'n'), el('td')));
      var lines = hunk.lines, i = 0;
      while (i < lines.length) {
        if (lines[i][0] === '-' || lines[i][0] === '+') {
          var removed = [], added = [];
          while (i < lines.length && lines[i][0] === '-') removed.push(lines[i++]);
          while (i < lines.length && lines[i][0] === '+') added.push(lines[i++]);
          for (var k = 0; k < Math.max(removed.length, added.length); k++) {
            var left = removed[k], right = added[k];
            add(table, add(el('tr'), el('td', 'n', left ? left[1] : ''), el('td', left ? 'text del' : 'text', left ? left[3] : ''), el('td', 'n', right ? right[2] : ''), el('td', right ? 'text add' : 'text', right ? right[3] : '')));
          }
        } else {
          var line = lines[i++];
          add(table, add(el('tr', 'ctx'), el('td', 'n', line[1]), el('td', 'text', line[3]), el('td', 'n', line[2]), el('td', 'text', line[3])));
        }
      }
    });
    return table;
  }

  sideBySide.checked = localStorage.getItem('openwork-ui-side-by-side') === '1';
  sideBySide.addEventListener('change', function () { localStorage.setItem('openwork-ui-side-by-side', sideBySide.checked ? '1' : '0'); if (state.view === 'session' && state.pages.length > 0) renderSession(); });
  window.addEventListener('hashchange', route);
  route();
})();
`;
