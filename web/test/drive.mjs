// The browser driver of tests/web_page.rs: opens the built page in Debian's
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

async function open(url) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(m.text()); });
  const start = Date.now();
  await page.goto(url);
  await page.waitForSelector('body[data-ready="1"]');
  return { page, loadMs: Date.now() - start };
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
      explanation: $('explanation-box').hidden ? '' : $('explanation').textContent,
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
const readyMs = Number(await page.evaluate(() => document.body.dataset.readyMs));
const shots = new Map(plan.screenshotCases.map((s) => [s.id, s.name]));
const observed = { scenarios: [] };

for (const s of plan.scenarios) {
  const loaded = await loadGame(page, s.game, s.standardOpening, s.repetitionDraw);
  const selected = await selectPiece(page, s.piece, s.pieceCell);
  const probed = await clickCell(page, s.probe);
  observed.scenarios.push({ id: s.id, loaded, selected, probed });
  if (shots.has(s.id)) {
    // The clicked piece's destinations and the explanation of the probe.
    await page.screenshot({ path: path.join(plan.screenshots, `${shots.get(s.id)}.png`), fullPage: true });
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

// Bad input: a malformed GameString and an illegal history, then a good one.
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
