// The set-up mode: a position put together piece by piece, without its
// history (a position string, spec/notation.md §9.36 to §9.42). It holds no
// rules either: the edit is plain data (game type, opening, whose turn and
// its number, the piece moved last, the stacks by cell), and after every
// edit the library judges it through the bindings (Session.check_setup),
// which answers the position string or the clause the position breaks.
//
// An edit that makes the position impossible (a split hive while pieces are
// still being put down, a spider on a stack) is kept on the board with the
// refusal and its clause shown: a board is often built through impossible
// steps. Only "Done" requires a possible position, and refuses otherwise,
// the edit kept.

import { drawBoard, resetFrame, pieceName } from './board.js';

const $ = (id) => document.getElementById(id);
let page;          // the page's helpers, given by wireSetup
let edit = null;   // the set-up being edited, null outside the set-up mode
let hand = null;   // the piece picked up: { piece, from: [q, r] | null }
let verdict = null; // the library's answer on the edit
let shared = '';   // the position string of the last edit that reads back

// The pieces of a game type, in the order of its box (from the bindings).
function piecesOf(gameType) {
  return JSON.parse(page.Session.pieces_of(gameType));
}

export function setupActive() {
  return edit !== null;
}

// The set-up's text for the link: the position string of the board, or,
// while the hive is split (its pieces cannot be written relative to each
// other, §9.40), of the last board that could be written.
export function setupLink() {
  return edit ? shared : '';
}

function cellAt(q, r) {
  return edit.cells.find((c) => c.q === q && c.r === r);
}

function locate(piece) {
  return edit.cells.find((c) => c.stack.includes(piece));
}

// Enters the set-up mode with `setup` (the JSON of Session.setup or of
// Session.read_setup).
export function startSetup(setup) {
  edit = {
    gameType: setup.gameType,
    standardOpening: Boolean(setup.standardOpening),
    toMove: setup.toMove,
    turn: String(setup.turn),
    lastMoved: setup.lastMoved || '',
    cells: setup.cells.map((c) => ({ q: c.q, r: c.r, stack: [...c.stack] })),
  };
  hand = null;
  resetFrame();
  $('setup-panel').hidden = false;
  document.body.classList.add('setting-up');
  for (const id of ['undo', 'redo', 'setup-start']) $(id).hidden = true;
  renderSetup();
}

export function leaveSetup() {
  edit = null;
  hand = null;
  verdict = null;
  shared = '';
  resetFrame();
  $('setup-panel').hidden = true;
  document.body.classList.remove('setting-up');
  for (const id of ['undo', 'redo', 'setup-start']) $(id).hidden = false;
}

// The fields of the form follow the edit; the board, the palettes and the
// library's verdict are drawn again.
export function renderSetup() {
  verdict = JSON.parse(page.Session.check_setup(JSON.stringify(edit)));
  if (verdict.readsBack && verdict.positionString) shared = verdict.positionString;
  $('setup-game-type').value = edit.gameType;
  $('setup-to-move').value = edit.toMove;
  if ($('setup-turn').value !== edit.turn) $('setup-turn').value = edit.turn;
  $('setup-standard').checked = edit.standardOpening;
  renderLastMoved();
  const held = hand && hand.from;
  const last = edit.lastMoved && locate(edit.lastMoved);
  drawBoard($('board'), {
    cells: edit.cells,
    selected: held ? { piece: hand.piece, cell: hand.from, targets: [], throws: [] } : null,
    explanation: null,
    lastMoveCells: last ? [[last.q, last.r]] : [],
  });
  renderPalettes();
  const box = $('setup-verdict');
  box.dataset.possible = String(verdict.possible);
  box.innerHTML = verdict.possible
    ? `Possible position (${page.escapeHtml(verdict.state)}). Position string: <code>${page.escapeHtml(verdict.positionString)}</code>`
    : `${page.withClauseLinks(verdict.message)}${verdict.positionString ? '' : ' The link keeps the last board whose pieces could be written down.'}`;
  $('setup-remove').disabled = !held;
  $('setup-remove').textContent = held ? `Remove ${hand.piece}` : 'Remove';
  $('setup-hand').textContent = hand
    ? `In hand: ${pieceName(hand.piece)}${hand.from ? ` from (${hand.from[0]}, ${hand.from[1]})` : ''}. Click a cell to put it there, on top of any stack.`
    : 'Nothing in hand: pick a piece from a palette or the board.';
  page.saveUrl();
}

// The choice of the piece moved last: none, or any piece on the board (the
// library refuses one that is covered or cannot have arrived, §5.10).
function renderLastMoved() {
  const select = $('setup-last');
  const onBoard = edit.cells.flatMap((c) => c.stack);
  const names = [...onBoard];
  if (edit.lastMoved && !names.includes(edit.lastMoved)) names.push(edit.lastMoved);
  const options = [['', 'none (a pass, or no ply yet)'], ...names.map((n) => [n, `${n} (${pieceName(n).replace(/ \S+$/, '')})${onBoard.includes(n) ? '' : ', not on the board'}`])];
  select.replaceChildren(...options.map(([value, label]) => {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = label;
    return o;
  }));
  select.value = edit.lastMoved;
}

// The palettes: the pieces of the game type not on the board, by colour,
// in the reserves' places. The focus stays on the piece pressed.
function renderPalettes() {
  const focusedPiece = document.activeElement && document.activeElement.closest
    && document.activeElement.closest('.reserve button[data-piece]')
    ? document.activeElement.dataset.piece : null;
  const placed = new Set(edit.cells.flatMap((c) => c.stack));
  const all = piecesOf(edit.gameType);
  for (const color of ['White', 'Black']) {
    const box = $(`reserve-${color.toLowerCase()}`);
    box.setAttribute('aria-label', `${color}'s palette`);
    const names = all.filter((n) => n[0] === color[0].toLowerCase() && !placed.has(n));
    box.replaceChildren(...names.map((name) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.piece = name;
      b.className = `piece ${color.toLowerCase()}`;
      b.setAttribute('aria-pressed', String(Boolean(hand && !hand.from && hand.piece === name)));
      b.setAttribute('aria-label', `${pieceName(name)}, in ${color}'s palette`);
      b.innerHTML = `<svg viewBox="-10 -10 20 20" aria-hidden="true" focusable="false"><use href="#bug-${name[1]}" x="-10" y="-10" width="20" height="20"/></svg><span>${name}</span>`;
      return b;
    }));
    if (!names.length) box.textContent = `Every ${color.toLowerCase()} piece is on the board`;
  }
  if (focusedPiece) {
    const again = document.querySelector(`.reserve button[data-piece="${focusedPiece}"]`);
    if (again) again.focus();
  }
}

// A piece of a palette pressed: in hand (pressed again: put back).
export function setupPick(piece) {
  hand = hand && !hand.from && hand.piece === piece ? null : { piece, from: null };
  page.showMessage('');
  renderSetup();
  page.announce(hand ? `${piece} in hand: choose a cell` : `${piece} put back`);
}

// Takes the top piece of a stack off the board.
function liftTop(cell) {
  const piece = cell.stack.pop();
  if (!cell.stack.length) edit.cells = edit.cells.filter((c) => c !== cell);
  return piece;
}

// A cell clicked: the piece in hand goes there (on top of a stack); with
// nothing in hand, the cell's top piece is picked up; the picked-up piece's
// own cell puts it down again.
export function setupClick(q, r) {
  const cell = cellAt(q, r);
  if (!hand) {
    if (!cell) {
      page.showMessage('Pick a piece from a palette (or a piece on the board) first, then click the cell it goes to.');
      return;
    }
    hand = { piece: cell.stack[cell.stack.length - 1], from: [q, r] };
    page.showMessage('');
    renderSetup();
    page.announce(`${hand.piece} picked up: choose the cell it goes to, or Remove`);
    return;
  }
  const { piece, from } = hand;
  if (from && from[0] === q && from[1] === r) {
    hand = null;
    renderSetup();
    page.announce(`${piece} put down where it was`);
    return;
  }
  if (from) liftTop(cellAt(from[0], from[1]));
  const target = cellAt(q, r);
  if (target) target.stack.push(piece);
  else edit.cells.push({ q, r, stack: [piece] });
  hand = null;
  page.showMessage('');
  renderSetup();
  const height = cellAt(q, r).stack.length;
  page.announce(`${piece} ${height > 1 ? `on a stack of ${height}` : 'put'} at (${q}, ${r}). ${verdictLine()}`);
}

// Returns the top piece of the cell (q, r), or the piece picked up, to its
// palette.
export function setupRemove(q, r) {
  const at = q === undefined ? hand && hand.from : [q, r];
  const cell = at && cellAt(at[0], at[1]);
  if (!cell) return;
  const piece = liftTop(cell);
  hand = null;
  renderSetup();
  page.announce(`${piece} back in its palette. ${verdictLine()}`);
}

export function setupDrop() {
  if (!hand) return;
  hand = null;
  renderSetup();
  page.announce('Nothing in hand');
}

function verdictLine() {
  return verdict.possible ? 'Possible position.' : verdict.message;
}

// "Done": back to the page with the position loaded, if it is possible.
function done() {
  if (!verdict.possible) {
    page.showMessage(`Not done. ${verdict.message} Change the board, the turn or the last move until the position is possible; your set-up is kept.`);
    page.announce(verdict.message);
    return;
  }
  const text = verdict.positionString;
  const standard = edit.standardOpening;
  leaveSetup();
  page.finish(text, standard);
}

function field(id, event, apply) {
  $(id).addEventListener(event, () => {
    if (!edit) return;
    apply($(id));
    renderSetup();
    page.announce(verdictLine());
  });
}

export function wireSetup(helpers) {
  page = helpers;
  $('setup-start').addEventListener('click', () => {
    const here = JSON.parse(page.session().setup());
    if (!here) {
      page.showMessage("The game's position could not be written as a position string; set it up from an empty board.");
      return;
    }
    page.showMessage('');
    page.clearSelection();
    startSetup(here);
    $('setup-title').focus();
  });
  field('setup-game-type', 'change', (e) => { edit.gameType = e.value; });
  field('setup-to-move', 'change', (e) => { edit.toMove = e.value; });
  field('setup-turn', 'input', (e) => { edit.turn = e.value; });
  field('setup-last', 'change', (e) => { edit.lastMoved = e.value; });
  field('setup-standard', 'change', (e) => { edit.standardOpening = e.checked; });
  $('setup-remove').addEventListener('click', () => setupRemove());
  $('setup-empty').addEventListener('click', () => {
    edit.cells = [];
    edit.toMove = 'White';
    edit.turn = '1';
    edit.lastMoved = '';
    hand = null;
    resetFrame();
    renderSetup();
    page.announce('The board is empty: White to move, turn 1');
  });
  $('setup-current').addEventListener('click', () => {
    const here = JSON.parse(page.session().setup());
    if (!here) return;
    startSetup(here);
    page.announce("The game's position is on the board");
  });
  $('setup-done').addEventListener('click', done);
  $('setup-cancel').addEventListener('click', () => {
    leaveSetup();
    page.showMessage('');
    page.cancel();
  });
}
