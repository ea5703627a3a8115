// Lighthouse on the web page: serves the built page (web/dist/, or the
// folder given) on the loopback address and runs Lighthouse's accessibility
// and best-practices categories in the installed Chromium at 1280×900
// (desktop) and 390×844 (phone), on four states of the page: as opened,
// with a piece selected (its moves and throws listed), with an
// explanation open (a probed illegal move drawn on the board) and in the
// set-up mode (an impossible board, its refusal shown). A state is
// reached through the page's URL fragment, as a shared link reopens it.
//
// Each state is audited as loaded (a navigation run), then again with every
// fold of the page open (grants, position listing, spec; a snapshot run).
// Prints each score and every failed audit with its elements, and exits 1
// if an accessibility score is below 0.98 (best practices are printed for
// information). web/tests/web_page.rs runs it.
//
//   node web/test/lighthouse.mjs [DIR]
//
// CHROME_PATH names the browser (default /usr/bin/chromium);
// LIGHTHOUSE_REPORTS=DIR also saves each full report there as JSON.

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import { navigation, snapshot } from 'lighthouse';
import puppeteer from 'puppeteer-core';

const MIN_ACCESSIBILITY = 0.98;
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(process.argv[2] || path.join(here, '..', 'dist'));
if (!fs.existsSync(path.join(root, 'index.html'))) {
  console.error(`lighthouse.mjs: no index.html in ${root}: build the page with web/build.sh`);
  process.exit(2);
}

const FORM_FACTORS = {
  desktop: { mobile: false, width: 1280, height: 900, deviceScaleFactor: 1, disabled: false },
  phone: { mobile: true, width: 390, height: 844, deviceScaleFactor: 3, disabled: false },
};

// A page state as the page writes it into its fragment.
function fragment(fields) {
  return `#${new URLSearchParams(fields)}`;
}

const STATES = {
  // A new Base+MLP game, the page as a visitor first sees it.
  opened: '',
  // White's pillbug selected: its moves, their grants and its throws
  // (corpus case pillbug.toml::pillbug-throws-opponent-queen).
  selected: fragment({
    game: 'Base+P;InProgress;White[6];wA1;bA1 wA1-;wQ -wA1;bQ bA1\\;wP wQ\\;bQ wA1\\;wG1 -wQ;bG1 bQ\\;wG2 -wG1;bG1 \\wA1',
    piece: 'wP',
  }),
  // The ant probed into the pocket a gate closes: the explanation of an
  // illegal move, its cells drawn on the board (corpus case
  // movement.toml::ground-gate-blocks-the-pocket).
  explained: fragment({
    game: 'Base;InProgress;White[9];wS1;bS1 -wS1;wQ wS1-;bQ -bS1;wG1 wQ-;bG1 /bQ;wG2 wS1\\;bG2 -bQ;wB1 wG1\\;bA1 -bG2;wS2 wG2\\;bA2 -bA1;wG3 wS1/;bA3 -bA2;wA1 -wS2;bB1 -bA3',
    piece: 'wA1',
    move: 'wA1 wQ\\',
  }),
  // The set-up mode, reopened from its link, with an impossible board: a
  // spider on White's beetle, refused with its clause (§6.2.1).
  setup: fragment({
    game: 'Base',
    setup: 'Base;Position;Black[3];last=wB1;opening=standard;wQ;wB1 wQ;bQ wQ-;bS1 bQ\\;wS1 wB1',
  }),
};

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

// A static server of `root`, refusing any path outside it.
function serve() {
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    const file = path.join(root, name.endsWith('/') ? `${name}index.html` : name);
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function config(formFactor) {
  const screen = FORM_FACTORS[formFactor];
  return {
    extends: 'lighthouse:default',
    settings: {
      onlyCategories: ['accessibility', 'best-practices'],
      formFactor: screen.mobile ? 'mobile' : 'desktop',
      screenEmulation: screen,
      // No throttling: these categories do not measure speed.
      throttlingMethod: 'provided',
    },
  };
}

// An audit's failing elements, one line each: the selector and what is wrong.
function items(audit) {
  const lines = [];
  for (const item of audit.details?.items ?? []) {
    const node = item.node ?? item.source ?? item;
    const where = node.selector || node.snippet || node.url || item.description || JSON.stringify(item);
    const why = node.explanation ? `: ${node.explanation.replace(/\s+/g, ' ')}` : '';
    lines.push(`      ${String(where).slice(0, 160)}${why.slice(0, 400)}`);
  }
  return lines;
}

function failedAudits(lhr, category) {
  const failed = [];
  for (const ref of lhr.categories[category].auditRefs) {
    const audit = lhr.audits[ref.id];
    if (ref.weight > 0 && audit.score !== null && audit.score < 1) failed.push(audit);
  }
  return failed;
}

// One Lighthouse result: its scores printed, its failed audits listed.
// Returns whether accessibility reached the minimum.
function report(name, lhr) {
  if (lhr.runtimeError) throw new Error(`${name}: ${lhr.runtimeError.message}`);
  if (reports) fs.writeFileSync(path.join(reports, `${name.replace(/[^a-z0-9]+/g, '-')}.json`), JSON.stringify(lhr, null, 1));
  const a11y = lhr.categories.accessibility.score;
  const bp = lhr.categories['best-practices'].score;
  console.log(`${name}: accessibility ${a11y.toFixed(2)}, best practices ${bp.toFixed(2)}`);
  for (const category of ['accessibility', 'best-practices']) {
    for (const audit of failedAudits(lhr, category)) {
      console.log(`  ${category} failed: ${audit.id} (${audit.title})`);
      for (const line of items(audit)) console.log(line);
    }
  }
  return a11y >= MIN_ACCESSIBILITY;
}

const server = await serve();
const base = `http://127.0.0.1:${server.address().port}/`;
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  // As root in a container, without network: no sandbox, no background
  // connections.
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic',
    '--no-first-run', '--disable-background-networking', '--disable-component-update',
    '--disable-sync'],
});
const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
const reports = process.env.LIGHTHOUSE_REPORTS;
if (reports) fs.mkdirSync(reports, { recursive: true });

let low = 0;
try {
  for (const formFactor of Object.keys(FORM_FACTORS)) {
    for (const [state, hash] of Object.entries(STATES)) {
      const page = await browser.newPage();
      // The page as loaded: Lighthouse's navigation run (the usual score).
      const loaded = await navigation(page, `${base}${hash}`, { config: config(formFactor) });
      const ready = await page.evaluate(() => document.body.dataset.ready === '1');
      if (!ready) throw new Error(`${formFactor} ${state}: the page did not start`);
      if (!report(`${formFactor} ${state}`, loaded.lhr)) low += 1;
      // The same state with every fold open (the grants of each move, the
      // text listing of the position, the spec), as a reader unfolds them.
      // A snapshot audits the page as it is: the screen is set here.
      const screen = FORM_FACTORS[formFactor];
      await page.setViewport({ width: screen.width, height: screen.height,
        deviceScaleFactor: screen.deviceScaleFactor, isMobile: screen.mobile, hasTouch: screen.mobile });
      // (A change of isMobile reloads the page; its fragment keeps the state.)
      await page.waitForSelector('body[data-ready="1"]');
      await page.evaluate(() => { for (const d of document.querySelectorAll('details')) d.open = true; });
      await page.waitForSelector('#spec > *');
      const unfolded = await snapshot(page, { config: config(formFactor) });
      const width = unfolded.lhr.fullPageScreenshot?.screenshot.width;
      if (Math.abs(width - screen.width) > 20) throw new Error(`${formFactor} ${state}: audited ${width} px wide`);
      if (!report(`${formFactor} ${state}, folds open`, unfolded.lhr)) low += 1;
      await page.close();
    }
  }
} finally {
  await browser.disconnect();
  await chrome.kill();
  server.close();
}
if (low) {
  console.log(`${low} accessibility score(s) below ${MIN_ACCESSIBILITY}`);
  process.exit(1);
}
console.log(`every accessibility score is at least ${MIN_ACCESSIBILITY}`);
