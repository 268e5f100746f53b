import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, runOpenwork, type CliSandbox } from '../test-support/cli-sandbox.js';
import { CHROMIUM, CHROMIUM_FOUND, launchBrowser, rawRequest, sessionIdOf, startUi, type RunningUi } from '../test-support/ui-browser.js';

const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? '';
const NO_CHROMIUM = `no Chromium at ${CHROMIUM} (Debian: apt-get install chromium; another binary: OPENWORK_TEST_CHROMIUM)`;

/** Browser tests: skipped without Chromium on a developer's machine, a failure in CI (CI=true), like the PostgreSQL tests. */
function describeWithChromium(name: string, body: () => void): void {
  if (CHROMIUM_FOUND) describe(name, body);
  else if (process.env['CI'] === 'true') describe(name, () => it('has Chromium', () => expect.fail(NO_CHROMIUM)));
  else describe.skip(`${name} (skipped: ${NO_CHROMIUM})`, body);
}

describeWithChromium('openwork ui in Chromium', () => {
  let sandbox: CliSandbox;
  let ui: RunningUi | undefined;
  let browser: BrowserContext | undefined;

  beforeEach(async () => {
    sandbox = await createCliSandbox();
  });

  afterEach(async () => {
    await browser?.close();
    await ui?.stop();
    browser = undefined;
    ui = undefined;
    await sandbox.remove();
  });

  async function call(tool: string, input: unknown, environment = sandbox.environment, session?: string): Promise<string> {
    const argv = ['call', tool, JSON.stringify(input), ...(session === undefined ? [] : ['--session', session])];
    const run = await runOpenwork(argv, { environment, cwd: sandbox.workspace });
    expect(run.status, run.stderr).toBe(0);
    return sessionIdOf(run.stderr);
  }

  async function openPage(environment = sandbox.environment): Promise<Page> {
    ui = await startUi(environment);
    browser = await launchBrowser(sandbox.root);
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(ui.url);
    (page as Page & { problems?: string[] }).problems = problems;
    return page;
  }

  async function openSession(page: Page, sessionId: string): Promise<void> {
    await page.locator(`tr[data-session-id="${sessionId}"] a`).click();
    await page.locator('#timeline').waitFor();
  }

  it('shows the calls and diffs of real openwork calls; Undo restores the file, Reapply writes it again; new calls appear live', async () => {
    const file = join(sandbox.workspace, 'notes.txt');
    const sessionId = await call('write', { path: 'notes.txt', content: 'one\ntwo\nthree\n' });
    await call('read', { path: 'notes.txt' }, sandbox.environment, sessionId);
    await call('edit', { filePath: 'notes.txt', oldString: 'two', newString: 'TWO' }, sandbox.environment, sessionId);
    const page = await openPage();

    // The list, newest first, searchable by workspace.
    const row = page.locator(`tr[data-session-id="${sessionId}"]`);
    await expect.poll(() => row.textContent()).toContain(sandbox.workspace);
    expect(await row.locator('td').nth(5).textContent()).toBe('3'); // calls
    expect(await row.locator('td').nth(6).textContent()).toBe('2'); // changes
    await page.fill('#search', 'no-such-workspace-anywhere');
    await page.getByText('No session has a workspace matching that.').waitFor();
    await page.fill('#search', sandbox.workspace.slice(-12));
    await row.waitFor();

    await openSession(page, sessionId);
    const calls = page.locator('.call');
    expect(await calls.count()).toBe(3);
    expect(await calls.locator('.tool').allTextContents()).toEqual(['write', 'read', 'edit']);
    expect(await calls.locator('.status').allTextContents()).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(await calls.nth(1).locator('.model-text').textContent()).toContain('two');
    const edit = page.locator('.change').nth(1);
    expect(await edit.locator('.path').textContent()).toBe('notes.txt');
    expect(await edit.locator('tr.del td.text').allTextContents()).toEqual(['two']);
    expect(await edit.locator('tr.add td.text').allTextContents()).toEqual(['TWO']);
    expect(await edit.locator('tr.add td.n').nth(1).textContent()).toBe('2'); // the new side's line number

    await calls.nth(2).scrollIntoViewIfNeeded();
    const screenshot = await page.screenshot({ path: join(sandbox.root, 'openwork-ui.png') });
    expect(screenshot.subarray(1, 4).toString()).toBe('PNG');
    // `OPENWORK_UI_SCREENSHOT=<file>` keeps it (the README's picture is made this way).
    const keep = process.env['OPENWORK_UI_SCREENSHOT'];
    if (keep !== undefined && keep !== '') await copyFile(join(sandbox.root, 'openwork-ui.png'), keep);

    await edit.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => edit.getAttribute('data-state')).toBe('undone');
    expect(await readFile(file, 'utf8')).toBe('one\ntwo\nthree\n');
    expect(await edit.locator('.notice.ok').textContent()).toMatch(/^Undone: call_/u);
    await edit.getByRole('button', { name: 'Reapply' }).click();
    await expect.poll(() => edit.getAttribute('data-state')).toBe('applied');
    expect(await readFile(file, 'utf8')).toBe('one\nTWO\nthree\n');

    // Side by side: a removed line and the line that replaced it share a row.
    await page.check('#side-by-side');
    await expect.poll(() => page.locator('table.split').count()).toBe(2);
    const pair = page.locator('.change').nth(1).locator('table.split tr', { has: page.locator('td.del') });
    expect(await pair.locator('td').allTextContents()).toEqual(['2', 'two', '2', 'TWO']);
    await page.uncheck('#side-by-side');

    // A call made while the page is open shows up without a reload.
    await call('write', { path: 'later.txt', content: 'added later\n' }, sandbox.environment, sessionId);
    await expect.poll(() => calls.count(), { timeout: 15_000 }).toBe(4);
    await page.locator('.change .path', { hasText: 'later.txt' }).waitFor();
    expect((page as Page & { problems?: string[] }).problems).toEqual([]);
  });

  it("shows a bash call's changes and undoes everything the call changed at once", async () => {
    const sessionId = await call('bash', { command: "printf 'a\\n' > one.txt; mkdir sub; printf 'b\\n' > sub/two.txt" });
    const page = await openPage();
    await openSession(page, sessionId);
    const card = page.locator('.call');
    expect(await card.textContent()).toContain('3 entries changed (3 created, 0 modified, 0 deleted)');
    expect(await card.locator('.change .path').allTextContents()).toEqual(['one.txt', 'sub', 'sub/two.txt']);
    expect(await card.locator('.change').nth(1).textContent()).toContain('a folder');
    await card.getByRole('button', { name: 'Undo everything this call changed' }).click();
    await expect.poll(() => card.locator('.change[data-state=undone]').count()).toBe(3);
    await expect(readFile(join(sandbox.workspace, 'one.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readFile(join(sandbox.workspace, 'sub', 'two.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    await card.getByRole('button', { name: 'Reapply everything this call changed' }).click();
    await expect.poll(() => card.locator('.change[data-state=applied]').count()).toBe(3);
    expect(await readFile(join(sandbox.workspace, 'sub', 'two.txt'), 'utf8')).toBe('b\n');
  });

  it('shows a conflict and leaves the file alone when the file changed since', async () => {
    const file = join(sandbox.workspace, 'config.txt');
    const sessionId = await call('write', { path: 'config.txt', content: 'written by the agent\n' });
    await writeFile(file, 'edited by the person afterwards\n');
    const page = await openPage();
    await openSession(page, sessionId);
    const change = page.locator('.change');
    await change.getByRole('button', { name: 'Undo' }).click();
    const notice = change.locator('.notice.conflict');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('conflict: config.txt');
    expect(await notice.textContent()).toContain('Nothing was overwritten.');
    expect(await change.getAttribute('data-state')).toBe('applied');
    expect(await readFile(file, 'utf8')).toBe('edited by the person afterwards\n');
  });

  it('renders a <script> file and a path with control characters as text', async () => {
    const path = 'evil\u001b[31m<b>x\u202e.txt';
    const content = '<script>window.__pwned = 1</script>\n<img src=x onerror="window.__pwned = 2">\n';
    const sessionId = await call('write', { path, content });
    const page = await openPage();
    await openSession(page, sessionId);
    const change = page.locator('.change');
    expect(await change.locator('.path').textContent()).toBe('evil\\x1b[31m<b>x\\u202e.txt');
    expect(await change.locator('tr.add td.text').allTextContents()).toEqual(['<script>window.__pwned = 1</script>', '<img src=x onerror="window.__pwned = 2">']);
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.locator('script').count()).toBe(1); // the page's own
    expect(await page.locator('img, b').count()).toBe(0);
    expect(await page.locator('.call .model-text').textContent()).toContain('\\x1b[31m<b>x\\u202e.txt');
  });

  it('loads a long session in pages', async () => {
    const lines = Array.from({ length: 120 }, () => JSON.stringify({ tool: 'list', input: { path: '.' } }));
    const run = await runOpenwork(['session'], { environment: sandbox.environment, cwd: sandbox.workspace, stdin: `${lines.join('\n')}\n` });
    expect(run.status, run.stderr).toBe(0);
    const sessionId = /session (\S+)/u.exec(run.stderr)?.[1] as string;
    const page = await openPage();
    await openSession(page, sessionId);
    const calls = page.locator('.call');
    expect(await calls.count()).toBe(50); // 100 messages: 50 calls and their results
    await page.locator('#more').click();
    await expect.poll(() => calls.count()).toBe(100);
    await page.locator('#more').click();
    await expect.poll(() => calls.count()).toBe(120);
    expect(await page.locator('#more').count()).toBe(0);
  });

  it('shows the plan and a background task with its state and output tail', async () => {
    const lines = [
      { tool: 'update_plan', input: { explanation: 'two steps', plan: [{ step: 'write <b>it</b>', status: 'completed' }, { step: 'check it', status: 'in_progress' }] } },
      { tool: 'bash', input: { command: 'echo started; echo finished', runInBackground: true, description: 'a short task' } },
      { tool: 'bash', input: { command: 'sleep 1' } },
    ];
    const run = await runOpenwork(['session'], { environment: sandbox.environment, cwd: sandbox.workspace, stdin: `${lines.map((line) => JSON.stringify(line)).join('\n')}\n` });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const sessionId = /session (\S+)/u.exec(run.stderr)?.[1] as string;
    const page = await openPage();
    await openSession(page, sessionId);
    expect(await page.locator('.plan li').allTextContents()).toEqual(['write <b>it</b> — completed', 'check it — in progress']);
    expect(await page.locator('.plan li[data-status=in_progress]').count()).toBe(1);
    const tasks = page.locator('.tasks');
    expect(await tasks.textContent()).toMatch(/bg-\w+ · exited \(exit 0\)/u);
    expect(await tasks.locator('pre').first().textContent()).toBe('echo started; echo finished');
    expect(await tasks.locator('details pre').textContent()).toContain('started\nfinished');
    expect(await page.locator('.call .tool').allTextContents()).toEqual(['update_plan', 'bash', 'bash']);
  });

  it('shows a sub-agent of a session and links parent and child', async () => {
    const parentId = await call('write', { path: 'parent.txt', content: 'parent\n' });
    const { SqliteSessionStore } = await import('@openwork/store-sqlite');
    const store = await SqliteSessionStore.open({ openworkHome: sandbox.openworkHome });
    const { run } = await store.createAgentRun({ parentSessionId: parentId, role: 'explorer', prompt: 'look for <img src=x onerror=alert(1)>', depth: 1, child: { workspaceRoots: [sandbox.workspace], mode: 'read-only' } });
    await store.close();
    const page = await openPage();
    await page.locator(`tr[data-session-id="${run.id}"]`).getByText('(sub-agent)').waitFor();
    await openSession(page, parentId);
    const agents = page.locator('.agents');
    expect(await agents.textContent()).toMatch(/ · explorer · (queued|running|finished|failed|cancelled|interrupted) · round 1 · /u);
    expect(await agents.locator('pre').first().textContent()).toBe('look for <img src=x onerror=alert(1)>');
    expect(await page.locator('img').count()).toBe(0);
    await agents.locator('a').click();
    await page.getByText(`parent session ${parentId.slice(0, 8)}`).waitFor();
    expect(await page.locator('h1').textContent()).toBe(`Session ${run.id.slice(0, 8)}`);
  });

  it('shows the first 400 lines of a long diff and the rest on request', async () => {
    const content = Array.from({ length: 1000 }, (_, index) => `line ${index + 1}\n`).join('');
    const sessionId = await call('write', { path: 'long.txt', content });
    const page = await openPage();
    await openSession(page, sessionId);
    const change = page.locator('.change');
    expect(await change.locator('tr.add').count()).toBe(400);
    await change.getByRole('button', { name: '600 more lines: show' }).click();
    await expect.poll(() => page.locator('.change tr.add').count()).toBe(1000);
    expect(await page.locator('.change tr.add td.n').nth(1999).textContent()).toBe('1000');
    expect(await page.locator('.change tr.add td.text').last().textContent()).toBe('line 1000');
  });

  it('refuses a request without the token, from a foreign Origin or Host, and a GET that would change something', async () => {
    const file = join(sandbox.workspace, 'kept.txt');
    const sessionId = await call('write', { path: 'kept.txt', content: 'kept\n' });
    ui = await startUi(sandbox.environment);
    const { port, token, origin } = ui;
    const changeId = JSON.parse((await rawRequest(port, { path: `/api/sessions/${sessionId}?token=${token}` })).body).entries[0].calls[0].id as string;
    const undo = (headers: Record<string, string>, path = `/api/sessions/${sessionId}/undo`) =>
      rawRequest(port, { method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ changeIds: [changeId] }) });

    expect((await rawRequest(port, { path: '/' })).status).toBe(401);
    expect((await rawRequest(port, { path: '/api/sessions' })).status).toBe(401);
    expect((await rawRequest(port, { path: `/api/sessions?token=${token.slice(0, -1)}x` })).status).toBe(401);
    expect((await rawRequest(port, { path: `/api/sessions?token=${token}`, headers: { host: `attacker.example:${port}` } })).status).toBe(421);
    expect((await rawRequest(port, { path: `/api/sessions?token=${token}`, headers: { host: `localhost:${port}` } })).status).toBe(200);
    expect((await rawRequest(port, { path: `/api/sessions?token=${token}`, headers: { host: `127.0.0.1:${port + 1}` } })).status).toBe(421);
    expect((await rawRequest(port, { path: `/api/sessions?token=${token}`, headers: { origin: 'http://attacker.example' } })).status).toBe(403);
    expect((await rawRequest(port, { path: `/api/sessions?token=${token}`, headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    expect((await rawRequest(port, { path: `/api/sessions/${sessionId}/undo?token=${token}` })).status).toBe(405);
    expect((await rawRequest(port, { method: 'HEAD', path: `/api/sessions/${sessionId}/undo?token=${token}` })).status).toBe(405);
    expect((await rawRequest(port, { path: `/api/sessions/%E0%A4%A/version?token=${token}` })).status).toBe(400);
    expect((await undo({ origin }))).toMatchObject({ status: 401 });
    expect((await undo({ origin }, `/api/sessions/${sessionId}/undo?token=${token}`)).status).toBe(403); // the token in the URL is not enough for a POST
    expect((await undo({ 'x-openwork-token': token, origin: 'http://attacker.example' })).status).toBe(403);
    expect((await undo({ 'x-openwork-token': token, origin, host: `attacker.example:${port}` })).status).toBe(421);
    expect((await undo({ 'x-openwork-token': token })).status).toBe(403); // no Origin: not from the page
    expect(await readFile(file, 'utf8')).toBe('kept\n');

    // The same request from the page's own origin is carried out.
    const done = await undo({ 'x-openwork-token': token, origin });
    expect(done.status, done.body).toBe(200);
    await expect(readFile(file, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describeWithChromium('openwork ui on PostgreSQL', () => {
  let sandbox: CliSandbox;
  const created: string[] = [];

  beforeEach(async () => {
    sandbox = await createCliSandbox();
  });

  afterEach(async () => {
    if (created.length > 0) {
      const { PostgresSessionStore } = await import('@openwork/store-postgres');
      const store = await PostgresSessionStore.connect({ connectionString: TEST_DATABASE_URL });
      for (const id of created.splice(0)) await store.deleteSession(id);
      await store.close();
    }
    await sandbox.remove();
  });

  const run = TEST_DATABASE_URL !== '' || process.env['CI'] === 'true' ? it : it.skip;
  run('shows a session stored in PostgreSQL and undoes its change', async () => {
    expect(TEST_DATABASE_URL, 'TEST_DATABASE_URL (tooling/scripts/test-postgres.sh create prints one)').not.toBe('');
    const environment = { ...sandbox.environment, OPENWORK_DATABASE_URL: TEST_DATABASE_URL };
    const write = await runOpenwork(['call', 'write', JSON.stringify({ path: 'pg.txt', content: 'in postgres\n' })], { environment, cwd: sandbox.workspace });
    expect(write.status, write.stderr).toBe(0);
    const sessionId = sessionIdOf(write.stderr);
    created.push(sessionId);
    const ui = await startUi(environment);
    const browser = await launchBrowser(sandbox.root);
    try {
      expect(ui.stderr()).toContain('sessions from postgresql://');
      const page = await browser.newPage();
      await page.goto(ui.url);
      await page.fill('#search', sandbox.workspace);
      await page.locator(`tr[data-session-id="${sessionId}"] a`).click();
      const change = page.locator('.change');
      await change.waitFor();
      expect(await change.locator('tr.add td.text').allTextContents()).toEqual(['in postgres']);
      await change.getByRole('button', { name: 'Undo' }).click();
      await expect.poll(() => change.getAttribute('data-state')).toBe('undone');
      await expect(readFile(join(sandbox.workspace, 'pg.txt'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await browser.close();
      await ui.stop();
    }
  });
});
