// The page's script: it holds no rules. Every answer comes from the crate's
// reference engine compiled to WebAssembly (src/web/), as JSON; this file
// draws it (board.js) and turns clicks and keys into questions.
//
// The page's state (position, options, selected piece, explained move, open
// clause) is kept in the URL's fragment, so a copied link of any length
// reopens the same view (a fragment is never sent to a server).

import init, { Session } from './hive_oracle.js';
import { drawBoard, resetFrame, cellName, pieceName, focusCell, moveFocus } from './board.js';
import {
  setupActive, setupLink, startSetup, leaveSetup, renderSetup, setupPick, setupClick, setupRemove,
  setupDrop, wireSetup,
} from './setup.js';

const $ = (id) => document.getElementById(id);
let session;
let selected = '';   // the clicked piece, as a PieceString
let explained = '';  // the explained move, as a MoveString
let clause = '';     // the open clause of the spec (clause-5.3)
let view;            // the last answer of session.view
let keepInput = false; // the text box keeps what was pasted (a record stopped at a ply)
let shownGame = '';    // the GameString last shown

function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

// Text with every clause number (§6.4.2) made a link to the spec.
function withClauseLinks(text) {
  return escapeHtml(text).replace(/§(\d+(?:\.\d+)*)/g,
    (all, n) => `<a class="clause-link" href="#clause-${n}">${all}</a>`);
}

function showMessage(text) {
  $('message').textContent = text || '';
  $('message').hidden = !text;
}

function announce(text) {
  $('announce').textContent = text;
}

function options() {
  return [$('standard-opening').checked, $('repetition-draw').checked];
}

function sideLetter() {
  return view.toMove === 'White' ? 'w' : 'b';
}

// Whether a text is a position string (§9.36): its second field is
// `Position`, where a GameString has its state.
function isPositionString(text) {
  return /^[^;]*;\s*position\s*(;|$)/i.test(text.trim());
}

// A position string with its opening field (§9.38) set: the position's own
// opening rule is the one it is played under, so the page's option rewrites it.
function withOpening(text, standard) {
  const fields = text.trim().split(';').filter((f) => !/^\s*opening=/i.test(f));
  if (standard) fields.splice(4, 0, 'opening=standard');
  return fields.join(';');
}

// Asks the engine for everything shown and draws it; in the set-up mode the
// board and the palettes are the set-up's (setup.js).
function render() {
  view = JSON.parse(session.view(selected, explained));
  if (setupActive()) {
    renderSetup();
    return;
  }
  $('state').textContent = view.state;
  $('to-move').textContent = view.over
    ? `game over after ${view.ply} plies`
    : `${view.toMove} to move, turn ${view.turn}`;
  $('last-move').textContent = view.lastMove ? `· last move ${view.lastMove} (ringed)` : '';
  $('game-string').textContent = view.gameString;
  $('game-string-label').textContent = isPositionString(view.gameString) ? 'Position string' : 'GameString';
  // The text box follows the game: rewritten when the game changes, so that
  // text being typed or pasted is not lost to another click.
  if (!keepInput && view.gameString !== shownGame) $('input').value = view.gameString;
  shownGame = view.gameString;
  $('undo').disabled = !view.canUndo;
  $('redo').disabled = !view.canRedo;
  $('game-type').value = view.gameType;
  drawBoard($('board'), view);
  renderReserves();
  renderListing();
  renderSelection();
  renderExplanation();
  $('answer-hint').hidden = Boolean(view.selected || view.explanation);
  if (view.error) showMessage(view.error);
  saveUrl();
}

function renderReserves() {
  for (const color of ['White', 'Black']) {
    const box = $(`reserve-${color.toLowerCase()}`);
    const names = view.reserves[color];
    box.setAttribute('aria-label', `${color}'s reserve`);
    box.replaceChildren(...names.map((name) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.piece = name;
      b.className = `piece ${color.toLowerCase()}`;
      b.setAttribute('aria-pressed', String(name === selected));
      b.setAttribute('aria-label', `${pieceName(name)}, in ${color}'s reserve`);
      b.innerHTML = `<svg viewBox="-10 -10 20 20" aria-hidden="true" focusable="false"><use href="#bug-${name[1]}" x="-10" y="-10" width="20" height="20"/></svg><span>${escapeHtml(name)}</span>`;
      return b;
    }));
    if (!names.length) box.textContent = `${color}'s reserve is empty`;
  }
}

function renderListing() {
  const items = view.cells.map((c) => {
    const li = document.createElement('li');
    li.textContent = cellName(c.q, c.r, c.stack);
    return li;
  });
  for (const color of ['White', 'Black']) {
    const li = document.createElement('li');
    const names = view.reserves[color];
    li.textContent = `${color}'s reserve: ${names.length ? names.join(', ') : 'empty'}`;
    items.push(li);
  }
  $('position-list').replaceChildren(...items);
}

function targetItem(t) {
  const li = document.createElement('li');
  li.dataset.move = t.move;
  li.innerHTML = `<button type="button" class="play" data-move="${escapeHtml(t.move)}">${escapeHtml(t.move)}</button> `
    + `<a href="#" class="explain-target" data-move="${escapeHtml(t.move)}">why</a>`
    + t.grants.map((g) => `<span class="grant">${withClauseLinks(g)}</span>`).join('');
  return li;
}

function renderSelection() {
  const sel = view.selected;
  $('selection').hidden = !sel;
  if (!sel) return;
  $('selected-piece').textContent = sel.piece;
  $('selected-name').textContent = `(${pieceName(sel.piece).replace(/ \S+$/, '')})`;
  const cell = sel.cell && view.cells.find((c) => c.q === sel.cell[0] && c.r === sel.cell[1]);
  $('stack-info').hidden = !(cell && cell.stack.length > 1);
  if (cell && cell.stack.length > 1) {
    $('stack-info').textContent = `A stack of ${cell.stack.length} at (${cell.q}, ${cell.r}), top first: `
      + [...cell.stack].reverse().map(pieceName).join(', then ');
  }
  $('no-targets').hidden = !sel.reason;
  $('no-targets').textContent = sel.reason || '';
  const n = sel.targets.length;
  $('move-count').hidden = n === 0;
  $('move-count').textContent = `${n} legal move${n === 1 ? '' : 's'}: ${sel.targets.map((t) => t.move).join(', ')}`;
  $('grants').hidden = n === 0;
  $('targets').replaceChildren(...sel.targets.map(targetItem));
  $('throws-box').hidden = sel.throws.length === 0;
  $('throws').replaceChildren(...sel.throws.map(targetItem));
}

function renderExplanation() {
  const ex = view.explanation;
  $('explanation-box').hidden = !ex;
  $('select-other').hidden = true;
  if (!ex) return;
  $('explanation').innerHTML = withClauseLinks(ex.text);
  $('explanation').dataset.legal = String(ex.legal);
  $('play-explained').hidden = !ex.legal;
  $('marks-legend').hidden = ex.marks.length === 0;
  // Several pieces may be thrown to one cell: the others are named.
  const others = (view.selected ? view.selected.throws : [])
    .filter((t) => t.move !== ex.move && t.cell && ex.cell && t.cell[0] === ex.cell[0] && t.cell[1] === ex.cell[1]);
  $('also-thrown').hidden = others.length === 0;
  $('also-thrown').textContent = others.length
    ? `Also thrown to this cell: ${others.map((t) => t.move).join(', ')} (in the list of throws).` : '';
  const top = ex.cell && topPiece(ex.cell[0], ex.cell[1]);
  if (!ex.legal && top && top !== selected) {
    $('select-other').textContent = `Select ${top} instead`;
    $('select-other').dataset.piece = top;
    $('select-other').hidden = false;
  }
}

function topPiece(q, r) {
  const cell = view.cells.find((c) => c.q === q && c.r === r);
  return cell ? cell.stack[cell.stack.length - 1] : null;
}

// The answer just given: into view, and said to a screen reader.
function showAnswer() {
  const ex = view.explanation;
  const sel = view.selected;
  let said = '';
  if (ex) said = ex.text.split('\n')[0];
  else if (sel && sel.reason) said = sel.reason.split('\n')[0];
  else if (sel) said = `${sel.piece} selected: ${sel.targets.length} legal moves${sel.throws.length ? `, ${sel.throws.length} throws` : ''}`;
  if (said) announce(said);
  const box = $('answer-box');
  const r = box.getBoundingClientRect();
  if (said && (r.top < 0 || r.top > window.innerHeight - 80)) box.scrollIntoView({ block: 'start' });
}

function saveUrl() {
  const p = new URLSearchParams();
  p.set('game', view.gameString);
  if (view.standardOpening) p.set('standard', '1');
  if (view.repetitionDraw) p.set('repetition', '1');
  if (selected) p.set('piece', selected);
  if (explained) p.set('move', explained);
  if (setupActive() && setupLink()) p.set('setup', setupLink());
  if (clause) p.set('clause', clause);
  history.replaceState(null, '', `${location.pathname}#${p}`);
  $('link').value = location.href;
}

// Runs one user action, notes how long the answer took and shows it.
function act(fn) {
  return (event) => {
    const start = performance.now();
    fn(event);
    const ms = performance.now() - start;
    document.body.dataset.answerMs = ms.toFixed(2);
    $('timing').textContent = `answered in ${ms.toFixed(1)} ms`;
    if (view) showAnswer();
  };
}

// Loads a pasted text; a game stopped at an illegal ply is loaded up to it
// and that ply explained.
function load(text, opts = options()) {
  const answer = JSON.parse(session.load(text, opts[0], opts[1]));
  if (answer.error && !answer.stoppedAt) {
    showMessage(answer.error);
    return false;
  }
  if (setupActive()) leaveSetup();
  resetFrame();
  selected = '';
  explained = '';
  keepInput = Boolean(answer.stoppedAt);
  if (answer.stoppedAt) {
    explained = answer.stoppedAt.move;
    showMessage(`${answer.error}\nLoaded up to ply ${answer.stoppedAt.ply}, ${answer.stoppedAt.move}: the position before it is on the board and the ply is explained.`);
  } else {
    showMessage('');
  }
  render();
  // The options of the game loaded (a record brings its own opening).
  $('standard-opening').checked = view.standardOpening;
  $('repetition-draw').checked = view.repetitionDraw;
  keepInput = false;
  return true;
}

function play(move) {
  const answer = JSON.parse(session.play(move));
  if (answer.error) {
    explained = move;
    render();
    showMessage(`${move} is illegal`);
    return;
  }
  showMessage('');
  selected = '';
  explained = '';
  render();
}

function select(piece) {
  selected = piece;
  explained = '';
  showMessage('');
  render();
}

function clickCell(q, r) {
  const top = topPiece(q, r);
  const sel = view.selected;
  if (!sel) {
    if (top) select(top);
    else showMessage('Click a piece (on the board or in a reserve) first.');
    return;
  }
  if (top === selected) {
    select('');
    return;
  }
  const at = (t) => t.cell && t.cell[0] === q && t.cell[1] === r;
  const target = sel.targets.find(at);
  if (target) {
    play(target.move);
    return;
  }
  const thrown = sel.throws.filter(at);
  if (thrown.length) {
    // A throw's destination: the throw (the first, if several pieces can
    // be thrown there), explained with its play button.
    explained = thrown[0].move;
  } else if (top && !view.over && top[0] === sideLetter()) {
    select(top);
    return;
  } else {
    explained = session.move_to(selected, q, r);
  }
  showMessage('');
  render();
}

function openClause(hash) {
  if (!$('spec').firstChild) $('spec').innerHTML = Session.spec_html();
  $('spec-panel').open = true;
  const target = document.getElementById(hash.slice(1));
  if (!target) return;
  for (const old of document.querySelectorAll('#spec .flash')) old.classList.remove('flash');
  target.classList.add('flash');
  target.scrollIntoView({ block: 'center' });
  clause = hash.slice(1);
  if (view) saveUrl();
}

// An option changed: the game is reloaded under it at once. When the game
// on the board is illegal under it, the game stays as it is, and the option
// stays ticked for the next game loaded, as the message says.
function applyOptions(changed) {
  const current = isPositionString(view.gameString) && changed.id === 'standard-opening'
    ? withOpening(view.gameString, changed.checked) : view.gameString;
  const answer = JSON.parse(session.load(current, ...options()));
  if (answer.error) {
    if (answer.stoppedAt) {
      const [standard, repetition] = [view.standardOpening, view.repetitionDraw];
      session.load(current, standard, repetition);
    }
    const name = changed.parentElement.textContent.trim();
    showMessage(`"${name}" applies to the next game loaded: the game on the board is illegal under it (${answer.error})`);
    return;
  }
  explained = '';
  showMessage('');
  // Text typed into the box and not yet loaded stays there (a position
  // string's opening field changes the string shown).
  keepInput = $('input').value.trim() !== shownGame;
  render();
  keepInput = false;
}

function wireBoard() {
  const board = $('board');
  board.addEventListener('click', act((event) => {
    const cell = event.target.closest('[data-q]');
    if (cell) {
      focusCell(board, cell);
      if (setupActive()) setupClick(Number(cell.dataset.q), Number(cell.dataset.r));
      else clickCell(Number(cell.dataset.q), Number(cell.dataset.r));
    }
  }));
  board.addEventListener('keydown', (event) => {
    const cell = event.target.closest('[data-q]');
    if (!cell) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      cell.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    } else if (setupActive() && (event.key === 'Delete' || event.key === 'Backspace')) {
      // The set-up mode: Delete takes the focused cell's top piece off.
      event.preventDefault();
      setupRemove(Number(cell.dataset.q), Number(cell.dataset.r));
    } else if (setupActive() && event.key === 'Escape') {
      event.preventDefault();
      setupDrop();
    } else if (moveFocus(board, cell, event.key)) {
      event.preventDefault();
    }
  });
  const info = (event) => {
    const cell = event.target.closest && event.target.closest('[data-q]');
    if (cell) $('cell-info').textContent = cell.getAttribute('aria-label');
  };
  board.addEventListener('mouseover', info);
  board.addEventListener('focusin', info);
}

function wire() {
  $('load').addEventListener('click', act(() => load($('input').value)));
  $('new-game').addEventListener('click', act(() => load($('game-type').value)));
  $('game-type').addEventListener('change', act(() => load($('game-type').value)));
  for (const id of ['standard-opening', 'repetition-draw']) {
    $(id).addEventListener('change', act((event) => applyOptions(event.target)));
  }
  $('undo').addEventListener('click', act(() => { session.undo(); select(''); }));
  $('redo').addEventListener('click', act(() => { session.redo(); select(''); }));
  $('copy-link').addEventListener('click', () => {
    $('link').select();
    if (navigator.clipboard) navigator.clipboard.writeText($('link').value).catch(() => {});
  });
  wireBoard();
  wireSetup({
    Session,
    session: () => session,
    escapeHtml,
    withClauseLinks,
    showMessage,
    announce,
    saveUrl: () => { if (view) saveUrl(); },
    // Before the set-up mode opens: no piece selected, no move explained.
    clearSelection: () => { selected = ''; explained = ''; render(); },
    finish: finishSetup,
    cancel: () => render(),
  });
  for (const id of ['reserve-white', 'reserve-black']) {
    $(id).addEventListener('click', act((event) => {
      const b = event.target.closest('button[data-piece]');
      if (b && setupActive()) setupPick(b.dataset.piece);
      else if (b) select(b.dataset.piece === selected ? '' : b.dataset.piece);
    }));
  }
  for (const id of ['targets', 'throws']) {
    $(id).addEventListener('click', act((event) => {
      const el = event.target.closest('[data-move]');
      if (!el) return;
      event.preventDefault();
      if (el.classList.contains('play')) {
        play(el.dataset.move);
      } else if (el.classList.contains('explain-target')) {
        explained = el.dataset.move;
        render();
      }
    }));
  }
  $('play-explained').addEventListener('click', act(() => play(explained)));
  $('select-other').addEventListener('click', act(() => select($('select-other').dataset.piece)));
  $('close-answer').addEventListener('click', () => { explained = ''; render(); });
  const explainTyped = () => { explained = $('move').value.trim(); showMessage(''); render(); };
  $('explain-move').addEventListener('click', act(explainTyped));
  $('play-move').addEventListener('click', act(() => play($('move').value.trim())));
  // Enter in the move box: plays a legal move; an illegal one is explained.
  $('move').addEventListener('keydown', act((event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      play($('move').value.trim());
    }
  }));
  document.body.addEventListener('click', (event) => {
    const link = event.target.closest('a[href^="#clause-"], a[href^="#ruling-"]');
    if (!link) return;
    event.preventDefault();
    openClause(link.getAttribute('href'));
  });
  $('spec-panel').addEventListener('toggle', () => {
    if ($('spec-panel').open && !$('spec').firstChild) $('spec').innerHTML = Session.spec_html();
  });
}

// "Done" in the set-up mode: the position string loaded as any pasted text
// is, under the set-up's opening. A position has no history for the
// repetition draw to count (§8.7.2, §9.42): the option is turned off, and
// the message says so.
function finishSetup(text, standard) {
  const repetition = $('repetition-draw').checked;
  if (repetition) $('repetition-draw').checked = false;
  if (!load(text, [standard, false])) return;
  if (repetition) showMessage('The repetition draw is off: a set-up position has no history for it to count (§8.7.2).');
  announce(`Position set up: ${view.state}, ${view.toMove} to move, turn ${view.turn}. Click a piece for its moves.`);
  const cell = $('board').querySelector('.cell[tabindex="0"]');
  if (cell) cell.focus();
}

// The state a link carries: in the fragment (#game=…), or in the query
// string of links made before the fragment was used.
function linkState() {
  const hash = location.hash.slice(1);
  if (hash.startsWith('clause-') || hash.startsWith('ruling-')) {
    return { p: new URLSearchParams(location.search), clause: hash };
  }
  const p = new URLSearchParams(hash.includes('=') ? hash : location.search);
  return { p, clause: p.get('clause') || '' };
}

async function start() {
  await init();
  session = new Session();
  wire();
  const { p, clause: opened } = linkState();
  const opts = [p.get('standard') === '1', p.get('repetition') === '1'];
  const game = p.get('game');
  if (!game) {
    load('Base+MLP', opts);
  } else if (!load(game, opts)) {
    const why = $('message').textContent;
    load('Base+MLP', opts);
    showMessage(`The link's game does not load: ${why}`);
  }
  selected = p.get('piece') || '';
  explained = explained || p.get('move') || '';
  render();
  // A link made in the set-up mode reopens it with its board.
  const setupText = p.get('setup');
  if (setupText) {
    const read = JSON.parse(Session.read_setup(setupText));
    if (read.error) showMessage(`The link's set-up does not read: ${read.error}\n${setupText}`);
    else { selected = ''; explained = ''; render(); startSetup(read.setup); }
  }
  if (opened) openClause(`#${opened}`);
  // The status line keeps its place (no shift): it now says the page is ready.
  $('loading').textContent = 'Ready: the rules engine runs in this page.';
  document.body.dataset.readyMs = performance.now().toFixed(0);
  document.body.dataset.ready = '1';
}

start().catch((error) => {
  if (window.hiveOracleFailed) window.hiveOracleFailed(String(error));
  else showMessage(`The page could not start: ${error}`);
});
