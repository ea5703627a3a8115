// The browser driver of web/tests/web_page.rs: opens the built page in Debian's
// Chromium (headless, through playwright-core), does the clicks the plan asks
// for and writes down what the page shows. It asserts nothing: the Rust test
// compares the observations with the reference engine's answers.
//
//   node web/test/drive.mjs PLAN.json OBSERVED.json

import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const [planPath, outPath] = process.argv.slice(2);
const plan = JSON.parse(fs.readFileSync(planPath, 'utf8'));
const pageErrors = [];
const clicks = [];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  // As root in a container, without network: no sandbox, no background
  // connections (they are refused on a closed network).
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

// A page at a viewport size, with the layout shifts counted from the start
// (the cumulative layout shift, CLS: shifts not caused by the user's input).
async function open(url, viewport = DESKTOP) {
  const page = await browser.newPage({ viewport });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(m.text()); });
  await page.addInitScript(() => {
    window.layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) window.layoutShift += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const start = Date.now();
  await page.goto(url);
  await page.waitForSelector('body[data-ready="1"]');
  return { page, loadMs: Date.now() - start };
}

// The cumulative layout shift once the page has settled.
async function layoutShift(page) {
  await page.waitForTimeout(300);
  return page.evaluate(() => window.layoutShift);
}

// What the page shows now.
function read(page) {
  return page.evaluate(() => {
    const $ = (id) => document.getElementById(id);
    return {
      gameString: $('game-string').textContent,
      state: $('state').textContent,
      message: $('message').hidden ? '' : $('message').textContent,
      selected: $('selection').hidden ? '' : $('selected-piece').textContent,
      targets: [...document.querySelectorAll('#targets li')].map((li) => ({
        move: li.dataset.move,
        grants: [...li.querySelectorAll('.grant')].map((g) => g.textContent),
      })),
      highlights: [...document.querySelectorAll('#board polygon.highlight')]
        .map((p) => [Number(p.dataset.q), Number(p.dataset.r)]),
      throws: [...document.querySelectorAll('#throws li')].map((li) => li.dataset.move),
      reason: $('no-targets').hidden ? '' : $('no-targets').textContent,
      explanation: $('explanation-box').hidden ? '' : $('explanation').textContent,
      alsoThrown: $('also-thrown').hidden ? '' : $('also-thrown').textContent,
      // The probed cell's style: 'illegal', 'legal' or '' (none drawn).
      probeStyle: document.querySelector('#board .probe-illegal') ? 'illegal'
        : document.querySelector('#board .probe-legal') ? 'legal' : '',
      marks: document.querySelectorAll('#board .fact-mark, #board .fact-path').length,
      lastMoveCells: document.querySelectorAll('#board .last-move').length,
      viewBox: (document.querySelector('#board svg') || { getAttribute: () => '' }).getAttribute('viewBox'),
      // Stacks: their height drawn, and every piece of each named.
      stackHeights: document.querySelectorAll('#board .height').length,
      stackNames: [...document.querySelectorAll('#board .cell.occupied')]
        .filter((c) => / stack of \d+: /.test(c.getAttribute('aria-label'))).length,
      input: $('input').value,
      announced: $('announce').textContent,
      // Where the answer is: its first line's top, in px from the
      // viewport's top, and whether that line is inside the viewport.
      answer: (() => {
        const box = [$('explanation-box'), $('selection')].find((b) => !b.hidden);
        if (!box) return null;
        const r = box.getBoundingClientRect();
        return { top: Math.round(r.top), inView: r.top >= 0 && r.top + 40 <= window.innerHeight };
      })(),
      answerMs: Number(document.body.dataset.answerMs || 'NaN'),
    };
  });
}

// Clicks a cell of the board (an occupied cell's group or an empty cell).
async function clickCell(page, [q, r]) {
  await page.click(`#board .cell[data-q="${q}"][data-r="${r}"]`);
  const view = await read(page);
  clicks.push(view.answerMs);
  return view;
}

async function loadGame(page, game, standard, repetition) {
  await page.fill('#input', game);
  await page.setChecked('#standard-opening', Boolean(standard));
  await page.setChecked('#repetition-draw', Boolean(repetition));
  await page.click('#load');
  return read(page);
}

async function selectPiece(page, piece, cell) {
  if (cell) return clickCell(page, cell);
  await page.click(`.reserve button[data-piece="${piece}"]`);
  const view = await read(page);
  clicks.push(view.answerMs);
  return view;
}

const { page, loadMs } = await open(`${plan.baseUrl}/index.html`);
const desktopShift = await layoutShift(page);
const readyMs = Number(await page.evaluate(() => document.body.dataset.readyMs));
const shots = new Map(plan.screenshotCases.map((s) => [s.id, s.name]));
const observed = { scenarios: [] };

for (const s of plan.scenarios) {
  const loaded = await loadGame(page, s.game, s.standardOpening, s.repetitionDraw);
  const selected = await selectPiece(page, s.piece, s.pieceCell).catch((e) => {
    throw new Error(`${s.id}: ${s.piece} not selected (page: ${JSON.stringify(loaded)}): ${e}`);
  });
  const probed = await clickCell(page, s.probe);
  observed.scenarios.push({ id: s.id, loaded, selected, probed });
  if (shots.has(s.id)) {
    // The clicked piece's destinations and the explanation of the probe.
    await page.screenshot({ path: path.join(plan.screenshots, `${shots.get(s.id)}.png`) });
  }
}

// A shared link: the last position with a selection and an explanation.
{
  const s = plan.scenarios.find((x) => x.pieceCell) || plan.scenarios[0];
  await loadGame(page, s.game, s.standardOpening, s.repetitionDraw);
  await selectPiece(page, s.piece, s.pieceCell);
  const before = await clickCell(page, s.probe);
  const url = await page.inputValue('#link');
  const other = await open(url);
  const after = await read(other.page);
  await other.page.close();
  observed.link = { url, before, after };
}

// Bad input: a malformed GameString (refused whole) and an illegal history
// (loaded up to the illegal ply, which is explained), then a good one.
{
  const before = await loadGame(page, plan.midgame.game, false, false);
  const malformed = await loadGame(page, plan.malformed, false, false);
  const illegalHistory = await loadGame(page, plan.illegalHistory, false, false);
  await loadGame(page, plan.midgame.game, false, false);
  const after = await selectPiece(page, plan.midgame.piece, plan.midgame.pieceCell);
  observed.badInput = { before, malformed, illegalHistory, after };
}

// Playing by clicking a destination, then undo and redo; the click on the
// piece is the Base+MLP midgame click that the README times.
let midgameClickMs;
{
  await loadGame(page, plan.midgame.game, false, false);
  const selected = await selectPiece(page, plan.midgame.piece, plan.midgame.pieceCell);
  midgameClickMs = selected.answerMs;
  const played = await clickCell(page, plan.midgame.target);
  await page.click('#undo');
  const undone = await read(page);
  await page.click('#redo');
  const redone = await read(page);
  observed.play = { selected, played, undone, redone };
}

// A pasted game record; a new game of a chosen type and opening, with its
// queen selected in the reserve; a typed move, explained.
{
  observed.record = await loadGame(page, plan.record, false, false);
  await page.selectOption('#game-type', plan.newGame.gameType);
  await page.setChecked('#standard-opening', plan.newGame.standardOpening);
  await page.click('#new-game');
  observed.newGame = await selectPiece(page, 'wQ', null);
  await page.setChecked('#standard-opening', false);
  await loadGame(page, plan.typed.game, false, false);
  await page.fill('#move', plan.typed.move);
  await page.click('#explain-move');
  observed.typed = await read(page);
}

// A clause number in an explanation opens the spec at that clause.
{
  const s = plan.scenarios[0];
  await loadGame(page, s.game, s.standardOpening, s.repetitionDraw);
  await selectPiece(page, s.piece, s.pieceCell);
  await clickCell(page, s.probe);
  const link = page.locator('#explanation a.clause-link').first();
  const href = await link.getAttribute('href');
  await link.click();
  const target = page.locator(`[id="${href.slice(1)}"]`);
  observed.clause = {
    href,
    open: await page.evaluate(() => document.getElementById('spec-panel').open),
    visible: await target.isVisible() && await target.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    }),
    label: await target.textContent(),
  };
}

// The pillbug: its throws listed under it, a throw's destination probed
// and explained as the throw; the screenshot of a throw.
{
  const t = plan.throw;
  await loadGame(page, t.game, false, false);
  const selected = await selectPiece(page, t.piece, t.pieceCell);
  const probed = await clickCell(page, t.target);
  await page.screenshot({ path: path.join(plan.screenshots, 'pillbug-throw.png') });
  observed.throw = { selected, probed };
}

// A piece with no move says why at once.
{
  const n = plan.noMove;
  await loadGame(page, n.game, false, false);
  observed.noMove = await selectPiece(page, n.piece, n.pieceCell);
}

// Clicking another of one's pieces selects it; Enter in the move box plays;
// the text box follows the game; an option applies at once and stays.
{
  const m = plan.midgame;
  await loadGame(page, m.game, false, false);
  await selectPiece(page, m.piece, m.pieceCell);
  const other = await clickCell(page, m.otherCell);
  await page.fill('#move', plan.enterMove);
  await page.press('#move', 'Enter');
  const entered = await read(page);
  await page.selectOption('#game-type', 'Base+L');
  const gameType = await read(page);
  await page.setChecked('#standard-opening', true);
  await page.click('.reserve button[data-piece="wQ"]');
  const standard = await read(page);
  const standardKept = await page.isChecked('#standard-opening');
  await page.setChecked('#standard-opening', false);
  observed.controls = { other, entered, gameType, standard, standardKept };
}

// The keyboard and the accessibility tree: every cell and reserve piece is
// a named button, reached with Tab and arrow keys; Enter clicks.
{
  const m = plan.midgame;
  await loadGame(page, m.game, false, false);
  const named = await page.evaluate(() => {
    const cells = [...document.querySelectorAll('#board .cell')];
    const pieces = [...document.querySelectorAll('.reserve button')];
    const ok = (e) => e.getAttribute('role') !== null || e.tagName === 'BUTTON';
    return {
      cells: cells.length,
      namedCells: cells.filter((c) => ok(c) && /^\(-?\d+, -?\d+\): /.test(c.getAttribute('aria-label') || '') && c.hasAttribute('tabindex')).length,
      occupied: cells.filter((c) => c.classList.contains('occupied')).length,
      occupiedNamed: cells.filter((c) => c.classList.contains('occupied') && /(White|Black) [a-z ]+ [wb][QAGSBMLP]\d?/.test(c.getAttribute('aria-label'))).length,
      reserve: pieces.length,
      reserveNamed: pieces.filter((b) => /^(White|Black) [a-z ]+ [wb][QAGSBMLP]\d?, in /.test(b.getAttribute('aria-label'))).length,
      live: document.querySelectorAll('[aria-live="polite"], [aria-live="assertive"]').length,
      listing: document.querySelectorAll('#position-list li').length,
    };
  });
  // Through the accessibility tree: a role query finds the piece's cell.
  const byRole = await page.getByRole('button', { name: new RegExp(`^\\(${m.pieceCell[0]}, ${m.pieceCell[1]}\\): `) }).count();
  await page.focus(`#board .cell[data-q="${m.pieceCell[0]}"][data-r="${m.pieceCell[1]}"]`);
  const focusedBefore = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  await page.keyboard.press('ArrowRight');
  const focusedAfter = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  const entered = await read(page);
  observed.access = { named, byRole, focusedBefore, focusedAfter, entered };
}

// On a phone (390×844): the page's layout shift, the answer in view after
// each click, and the phone screenshot.
{
  const { page: phone } = await open(`${plan.baseUrl}/index.html`, PHONE);
  const shift = await layoutShift(phone);
  const answers = [];
  for (const s of plan.scenarios.filter((x) => plan.phoneCases.includes(x.id))) {
    await loadGame(phone, s.game, s.standardOpening, s.repetitionDraw);
    const selected = await selectPiece(phone, s.piece, s.pieceCell);
    const probed = await clickCell(phone, s.probe);
    answers.push({ id: s.id, selected: selected.answer, probed: probed.answer, board: await phone.evaluate(() => {
      const hex = document.querySelector('#board .cell .ground').getBoundingClientRect();
      return { hexWidth: Math.round(hex.width) };
    }) });
    if (s.id === plan.phoneCases[0]) await phone.screenshot({ path: path.join(plan.screenshots, 'phone.png') });
  }
  await phone.close();
  observed.phone = { shift, answers };
}

// The set-up mode: what it shows beside the page's usual observations.
async function readSetup(page) {
  const base = await read(page);
  const setup = await page.evaluate(() => {
    const $ = (id) => document.getElementById(id);
    const palette = [...document.querySelectorAll('.reserve button[data-piece]')];
    return {
      active: !$('setup-panel').hidden,
      verdict: $('setup-verdict').textContent,
      possible: $('setup-verdict').dataset.possible || '',
      clauseLinks: [...document.querySelectorAll('#setup-verdict a.clause-link')].map((a) => a.textContent),
      hand: $('setup-hand').textContent,
      cells: [...document.querySelectorAll('#board .cell.occupied')].map((c) => c.getAttribute('aria-label')).sort(),
      palette: palette.map((b) => b.dataset.piece),
      paletteNamed: palette.filter((b) => /^(White|Black) [a-z ]+ [wb][QAGSBMLP]\d?, in (White|Black)'s palette$/.test(b.getAttribute('aria-label'))).length,
      // Everything inside the viewport's width: no sideways scrolling, every
      // palette piece and control on the screen.
      overflow: document.documentElement.scrollWidth - window.innerWidth,
      offScreen: [...palette, ...document.querySelectorAll('#setup-panel button, #setup-panel select, #setup-panel input')]
        .filter((e) => { const r = e.getBoundingClientRect(); return r.left < 0 || r.right > window.innerWidth; }).length,
      link: $('link').value,
      label: $('game-string-label').textContent,
    };
  });
  return { ...base, setup };
}

// A piece of a palette put on a cell, by two clicks.
async function putPiece(page, piece, [q, r]) {
  await page.click(`.reserve button[data-piece="${piece}"]`);
  await page.click(`#board .cell[data-q="${q}"][data-r="${r}"]`);
}

// The set-up's fields (side, turn, piece moved last, opening), by the mouse.
async function setFields(page, s) {
  await page.selectOption('#setup-to-move', s.toMove);
  await page.fill('#setup-turn', String(s.turn));
  await page.selectOption('#setup-last', s.lastMoved);
  await page.setChecked('#setup-standard', s.standardOpening);
}

// A position set up from an empty board by clicks; an impossible edit (a
// spider on a stack, then the same spider away from the hive) refused with
// its clause, Done refused then; the set-up's link reopened; Done, and a
// piece of the position clicked and a cell probed.
{
  const s = plan.setup;
  observed.setupTyped = await loadGame(page, s.position, false, false);
  observed.setupTypedLabel = await page.textContent('#game-string-label');
  await loadGame(page, 'Base', false, false);
  await page.click('#setup-start');
  const opened = await readSetup(page);
  await page.click('#setup-empty');
  const empty = await readSetup(page);
  for (const [piece, cell] of s.pieces) await putPiece(page, piece, cell);
  const placed = await readSetup(page);
  await setFields(page, s);
  const possible = await readSetup(page);
  await putPiece(page, s.spider.piece, s.spider.onto);
  const onStack = await readSetup(page);
  await page.evaluate(() => document.getElementById('setup-panel').scrollIntoView());
  await page.screenshot({ path: path.join(plan.screenshots, 'setup-desktop.png') });
  await page.click('#setup-done');
  const doneRefused = await readSetup(page);
  const { page: reopened } = await open(onStack.setup.link);
  const linked = await readSetup(reopened);
  await reopened.close();
  await page.click(`#board .cell[data-q="${s.spider.onto[0]}"][data-r="${s.spider.onto[1]}"]`);
  const pickedUp = await readSetup(page);
  await page.click(`#board .cell[data-q="${s.spider.far[0]}"][data-r="${s.spider.far[1]}"]`);
  const split = await readSetup(page);
  await page.click(`#board .cell[data-q="${s.spider.far[0]}"][data-r="${s.spider.far[1]}"]`);
  await page.click('#setup-remove');
  const removed = await readSetup(page);
  await page.click('#setup-done');
  const done = await readSetup(page);
  const selected = await clickCell(page, s.select);
  const probed = await clickCell(page, s.probe);
  const url = await page.inputValue('#link');
  const { page: other } = await open(url);
  const reopenedGame = await read(other);
  await other.close();
  observed.setup = {
    opened, empty, placed, possible, onStack, doneRefused, linked, pickedUp, split, removed, done,
    selected, probed, url, reopened: reopenedGame,
  };
}

// The same set-up by the keyboard alone: palette pieces pressed with Enter,
// cells reached with the arrow keys and Enter, Delete and Escape, the fields
// typed, Done pressed; then a piece selected with Enter.
async function keyTo(page, [q, r]) {
  for (let i = 0; i < 40; i += 1) {
    const at = await page.evaluate(() => {
      const e = document.activeElement;
      return e && e.dataset && e.dataset.q !== undefined ? [Number(e.dataset.q), Number(e.dataset.r)] : null;
    });
    if (!at) throw new Error('the focus left the board');
    if (at[0] === q && at[1] === r) return;
    let keyName;
    if (at[1] !== r) keyName = at[1] < r ? 'ArrowDown' : 'ArrowUp';
    else keyName = at[0] < q ? 'ArrowRight' : 'ArrowLeft';
    await page.keyboard.press(keyName);
  }
  throw new Error(`the arrow keys did not reach (${q}, ${r})`);
}

async function keyPut(page, piece, cell) {
  await page.focus(`.reserve button[data-piece="${piece}"]`);
  await page.keyboard.press('Enter');
  await page.focus('#board .cell[tabindex="0"]');
  await keyTo(page, cell);
  await page.keyboard.press('Enter');
}

{
  const s = plan.setup;
  const { page: kb } = await open(`${plan.baseUrl}/index.html#game=Base`);
  await kb.focus('#setup-start');
  await kb.keyboard.press('Enter');
  const focusedTitle = await kb.evaluate(() => document.activeElement.id);
  await kb.focus('#setup-empty');
  await kb.keyboard.press('Enter');
  for (const [piece, cell] of s.pieces) await keyPut(kb, piece, cell);
  // A piece put and taken off again with Delete; a piece picked and put
  // down with Escape.
  await keyPut(kb, s.spider.piece, s.spider.onto);
  const stacked = await readSetup(kb);
  await kb.keyboard.press('Delete');
  const deleted = await readSetup(kb);
  await kb.focus(`.reserve button[data-piece="${s.spider.piece}"]`);
  await kb.keyboard.press('Enter');
  const inHand = await readSetup(kb);
  await kb.focus('#board .cell[tabindex="0"]');
  await kb.keyboard.press('Escape');
  const dropped = await readSetup(kb);
  await kb.focus('#setup-to-move');
  await kb.keyboard.type(s.toMove);
  await kb.focus('#setup-turn');
  await kb.keyboard.press('Control+A');
  await kb.keyboard.type(String(s.turn));
  await kb.focus('#setup-last');
  await kb.keyboard.type(s.lastMoved);
  await kb.focus('#setup-standard');
  if (s.standardOpening) await kb.keyboard.press('Space');
  const filled = await readSetup(kb);
  await kb.focus('#setup-done');
  await kb.keyboard.press('Enter');
  const done = await readSetup(kb);
  await keyTo(kb, s.select);
  await kb.keyboard.press('Enter');
  const selected = await read(kb);
  await kb.close();
  observed.setupKeyboard = { focusedTitle, stacked, deleted, inHand, dropped, filled, done, selected };
}

// The set-up on a phone (390×844): nothing wider than the screen, the
// palettes and the board used by taps, the phone's screenshot.
{
  const s = plan.setup;
  const { page: phone } = await open(`${plan.baseUrl}/index.html#game=Base`, PHONE);
  await phone.click('#setup-start');
  await phone.click('#setup-empty');
  for (const [piece, cell] of s.pieces) await putPiece(phone, piece, cell);
  await setFields(phone, s);
  await phone.click(`.reserve button[data-piece="${s.spider.piece}"]`);
  const filled = await readSetup(phone);
  await phone.evaluate(() => document.getElementById('setup-panel').scrollIntoView());
  await phone.screenshot({ path: path.join(plan.screenshots, 'setup-phone.png') });
  await phone.click(`.reserve button[data-piece="${s.spider.piece}"]`);
  await phone.click('#setup-done');
  const done = await readSetup(phone);
  const selected = await clickCell(phone, s.select);
  await phone.close();
  observed.setupPhone = { filled, done, selected };
}

// Opened from disk, the page says it cannot start and how to serve it.
{
  const disk = await browser.newPage({ viewport: DESKTOP });
  await disk.goto(`file://${plan.distPath}/index.html`);
  await disk.waitForSelector('#loading.failed', { timeout: 10000 }).catch(() => {});
  observed.fromDisk = await disk.evaluate(() => ({
    text: document.getElementById('loading').textContent,
    failed: document.getElementById('loading').classList.contains('failed'),
  }));
  await disk.close();
}
observed.desktopShift = desktopShift;

const sorted = clicks.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
observed.timing = {
  loadMs,
  readyMs,
  clicks: sorted.length,
  medianClickMs: sorted[Math.floor(sorted.length / 2)],
  maxClickMs: sorted[sorted.length - 1],
  midgameClickMs,
};
observed.pageErrors = pageErrors;
fs.writeFileSync(outPath, JSON.stringify(observed, null, 1));
await browser.close();
