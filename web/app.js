// The page's script: it holds no rules. Every answer comes from the crate's
// reference engine compiled to WebAssembly (src/web/), as JSON; this file
// draws it and turns clicks into questions.
//
// The page's state (position, options, selected piece, explained move) is kept
// in the URL's query string, so a copied link reopens the same view; the hash
// is left to the spec's anchors (#clause-5.3).

import init, { Session } from './hive_oracle.js';

const $ = (id) => document.getElementById(id);
let session;
let selected = '';   // the clicked piece, as a PieceString
let explained = '';  // the explained move, as a MoveString
let view;            // the last answer of session.view

function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
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

function options() {
  return [$('standard-opening').checked, $('repetition-draw').checked];
}

// Asks the engine for everything shown and draws it.
function render() {
  view = JSON.parse(session.view(selected, explained));
  $('state').textContent = view.state;
  $('to-move').textContent = view.over
    ? `game over after ${view.ply} plies`
    : `${view.toMove} to move, turn ${view.turn}`;
  $('game-string').textContent = view.gameString;
  $('undo').disabled = !view.canUndo;
  $('redo').disabled = !view.canRedo;
  $('game-type').value = view.gameType;
  $('standard-opening').checked = view.standardOpening;
  $('repetition-draw').checked = view.repetitionDraw;
  $('board').innerHTML = view.svg.replace(/^<\?xml[^>]*>\s*/, '');
  for (const color of ['White', 'Black']) {
    const box = $(`reserve-${color.toLowerCase()}`);
    box.replaceChildren(...view.reserves[color].map((name) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = name;
      b.dataset.piece = name;
      b.className = color.toLowerCase();
      b.setAttribute('aria-pressed', String(name === selected));
      return b;
    }));
  }
  const sel = view.selected;
  $('selection').hidden = !sel;
  if (sel) {
    $('selected-piece').textContent = sel.piece;
    $('no-targets').hidden = sel.targets.length > 0;
    $('targets').replaceChildren(...sel.targets.map((t) => {
      const li = document.createElement('li');
      li.dataset.move = t.move;
      li.innerHTML = `<button type="button" class="play" data-move="${escapeHtml(t.move)}">${escapeHtml(t.move)}</button> `
        + `<a href="#" class="explain-target" data-move="${escapeHtml(t.move)}">why</a>`
        + t.grants.map((g) => `<span class="grant">${withClauseLinks(g)}</span>`).join('');
      return li;
    }));
  }
  const ex = view.explanation;
  $('explanation-box').hidden = !ex;
  $('select-other').hidden = true;
  if (ex) {
    $('explanation').innerHTML = withClauseLinks(ex.text);
    $('explanation').dataset.legal = String(ex.legal);
    $('play-explained').hidden = !ex.legal;
    const to = explainedCell();
    const top = to && topPiece(to[0], to[1]);
    if (!ex.legal && top && top !== selected) {
      $('select-other').textContent = `Select ${top} instead`;
      $('select-other').dataset.piece = top;
      $('select-other').hidden = false;
    }
  }
  if (view.error) showMessage(view.error);
  saveUrl();
}

function explainedCell() {
  const t = view.selected && view.selected.targets.find((x) => x.move === explained);
  if (t) return t.cell;
  return lastClicked;
}

function topPiece(q, r) {
  const cell = view.cells.find((c) => c.q === q && c.r === r);
  return cell ? cell.stack[cell.stack.length - 1] : null;
}

function saveUrl() {
  const p = new URLSearchParams();
  p.set('game', view.gameString);
  if (view.standardOpening) p.set('standard', '1');
  if (view.repetitionDraw) p.set('repetition', '1');
  if (selected) p.set('piece', selected);
  if (explained) p.set('move', explained);
  const url = `${location.pathname}?${p}${location.hash}`;
  history.replaceState(null, '', url);
  $('link').value = location.href;
}

// Runs one user action and notes how long the answer took.
function act(fn) {
  return (event) => {
    const start = performance.now();
    fn(event);
    const ms = performance.now() - start;
    document.body.dataset.answerMs = ms.toFixed(2);
    $('timing').textContent = `answered in ${ms.toFixed(1)} ms`;
  };
}

function load(text) {
  const [standard, repetition] = options();
  const answer = JSON.parse(session.load(text, standard, repetition));
  if (answer.error) {
    showMessage(answer.error);
    return false;
  }
  showMessage('');
  selected = '';
  explained = '';
  render();
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

let lastClicked = null;

function clickCell(q, r) {
  lastClicked = [q, r];
  const top = topPiece(q, r);
  if (!view.selected) {
    if (top) {
      selected = top;
      explained = '';
      showMessage('');
    } else {
      showMessage('Click a piece (on the board or in a reserve) first.');
    }
    render();
    return;
  }
  if (top === selected) {
    selected = '';
    explained = '';
    showMessage('');
    render();
    return;
  }
  const target = view.selected.targets.find((t) => t.cell && t.cell[0] === q && t.cell[1] === r);
  if (target) {
    play(target.move);
    return;
  }
  explained = session.move_to(selected, q, r);
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
  history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
}

function wire() {
  $('load').addEventListener('click', act(() => load($('input').value)));
  $('new-game').addEventListener('click', act(() => load($('game-type').value)));
  $('undo').addEventListener('click', act(() => { session.undo(); selected = ''; explained = ''; render(); }));
  $('redo').addEventListener('click', act(() => { session.redo(); selected = ''; explained = ''; render(); }));
  $('copy-link').addEventListener('click', () => {
    $('link').select();
    if (navigator.clipboard) navigator.clipboard.writeText($('link').value).catch(() => {});
  });
  $('board').addEventListener('click', act((event) => {
    const cell = event.target.closest('[data-q]');
    if (cell) clickCell(Number(cell.dataset.q), Number(cell.dataset.r));
  }));
  for (const id of ['reserve-white', 'reserve-black']) {
    $(id).addEventListener('click', act((event) => {
      const b = event.target.closest('button[data-piece]');
      if (!b) return;
      selected = b.dataset.piece === selected ? '' : b.dataset.piece;
      explained = '';
      lastClicked = null;
      showMessage('');
      render();
    }));
  }
  $('targets').addEventListener('click', act((event) => {
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
  $('play-explained').addEventListener('click', act(() => play(explained)));
  $('select-other').addEventListener('click', act(() => {
    selected = $('select-other').dataset.piece;
    explained = '';
    render();
  }));
  $('explain-move').addEventListener('click', act(() => {
    explained = $('move').value.trim();
    showMessage('');
    render();
  }));
  $('play-move').addEventListener('click', act(() => play($('move').value.trim())));
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

async function start() {
  await init();
  session = new Session();
  wire();
  const p = new URLSearchParams(location.search);
  $('standard-opening').checked = p.get('standard') === '1';
  $('repetition-draw').checked = p.get('repetition') === '1';
  const game = p.get('game');
  if (!game) {
    load('Base+MLP');
  } else if (!load(game)) {
    const why = $('message').textContent;
    load('Base+MLP');
    showMessage(`The link's game does not load: ${why}`);
  }
  selected = p.get('piece') || '';
  explained = p.get('move') || '';
  render();
  if (location.hash.startsWith('#clause-') || location.hash.startsWith('#ruling-')) openClause(location.hash);
  document.body.dataset.readyMs = performance.now().toFixed(0);
  document.body.dataset.ready = '1';
}

start().catch((error) => {
  showMessage(`The page could not start: ${error}`);
});
