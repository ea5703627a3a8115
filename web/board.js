// The board, drawn from the engine's answer (no rules here): pointy-top
// hexagons on the grid of spec §2.1 (q grows to the east, r to the south),
// each cell a focusable button named by its coordinates and stack, our own
// bug drawings (index.html, #bug-Q …), the selected piece's destinations,
// the probed cell (legal or illegal, each its own style), the last move,
// and the cells and walks the explanation's facts name.

const R = 24;                 // a hexagon's radius, in the picture's units
const MIN_RADIUS_PX = 19;     // never smaller on screen: the board scrolls instead
const SQRT3 = Math.sqrt(3);
const BUGS = { Q: 'queen bee', A: 'ant', G: 'grasshopper', S: 'spider', B: 'beetle', M: 'mosquito', L: 'ladybug', P: 'pillbug' };
const SVG = 'http://www.w3.org/2000/svg';

let frame = null;   // the picture's box, kept while the hive fits in it
let focused = null; // [q, r] of the cell that takes the focus (roving tabindex)

export function resetFrame() {
  frame = null;
  focused = null;
}

// "White beetle wB1"
export function pieceName(name) {
  const color = name[0] === 'w' ? 'White' : 'Black';
  return `${color} ${BUGS[name[1]] || name[1]} ${name}`;
}

// A cell's accessible name: coordinates, then the stack, top first.
export function cellName(q, r, stack, extra = '') {
  const where = `(${q}, ${r})`;
  let what;
  if (!stack || stack.length === 0) what = 'empty';
  else if (stack.length === 1) what = pieceName(stack[0]);
  else what = `stack of ${stack.length}: ${[...stack].reverse().map(pieceName).join(', on ')}`;
  return `${where}: ${what}${extra}`;
}

function center(q, r) {
  return [R * SQRT3 * (q + r / 2), R * 1.5 * r];
}

function hexPoints(q, r, radius = R) {
  const [x, y] = center(q, r);
  const pts = [];
  for (let i = 0; i < 6; i += 1) {
    const a = Math.PI / 180 * (60 * i - 30);
    pts.push(`${(x + radius * Math.cos(a)).toFixed(1)},${(y + radius * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(' ');
}

const key = (q, r) => `${q},${r}`;
const NEIGHBOURS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// The cells drawn: the occupied ones, every cell within two steps of them,
// and any cell the answer names.
function cellsToDraw(view, named) {
  const occupied = new Map(view.cells.map((c) => [key(c.q, c.r), c.stack]));
  const cells = new Map();
  const add = (q, r) => { if (!cells.has(key(q, r))) cells.set(key(q, r), [q, r]); };
  if (occupied.size === 0) add(0, 0);
  for (const c of view.cells) {
    add(c.q, c.r);
    for (const [dq, dr] of NEIGHBOURS) {
      add(c.q + dq, c.r + dr);
      for (const [eq, er] of NEIGHBOURS) add(c.q + dq + eq, c.r + dr + er);
    }
  }
  for (const [q, r] of named) add(q, r);
  return { occupied, cells: [...cells.values()] };
}

// The picture's box: kept from the last drawing while every cell fits, so a
// move does not shift the board; else the cells' box with a cell of slack.
function frameFor(cells) {
  const xs = cells.map(([q, r]) => center(q, r)[0]);
  const ys = cells.map(([q, r]) => center(q, r)[1]);
  const need = { x0: Math.min(...xs) - R, y0: Math.min(...ys) - R, x1: Math.max(...xs) + R, y1: Math.max(...ys) + R };
  const fits = Boolean(frame) && need.x0 >= frame.x0 && need.y0 >= frame.y0 && need.x1 <= frame.x1 && need.y1 <= frame.y1;
  if (fits) return { frame, moved: false };
  {
    const slack = 2 * R;
    frame = { x0: need.x0 - slack, y0: need.y0 - slack, x1: need.x1 + slack, y1: need.y1 + slack };
    // At least as wide as 3:2, the board's box, so the picture fills it.
    const w = frame.x1 - frame.x0;
    const h = frame.y1 - frame.y0;
    if (w < h * 1.5) { const d = (h * 1.5 - w) / 2; frame.x0 -= d; frame.x1 += d; }
    if (h < w / 1.5) { const d = (w / 1.5 - h) / 2; frame.y0 -= d; frame.y1 += d; }
  }
  return { frame, moved: true };
}

function drawPiece(g, q, r, stack) {
  const top = stack[stack.length - 1];
  const [x, y] = center(q, r);
  const color = top[0] === 'w' ? 'white' : 'black';
  el('polygon', { points: hexPoints(q, r, R - 2), class: `tile ${color}` }, g);
  el('use', { href: `#bug-${top[1]}`, x: x - R * 0.55, y: y - R * 0.72, width: R * 1.1, height: R * 1.1, class: `bug ${color}` }, g);
  const label = el('text', { x, y: y + R * 0.68, class: `label ${color}` }, g);
  label.textContent = top.slice(1);
  if (stack.length > 1) {
    el('circle', { cx: x + R * 0.55, cy: y - R * 0.5, r: R * 0.3, class: 'height' }, g);
    const h = el('text', { x: x + R * 0.55, y: y - R * 0.5 + 4, class: 'height-text' }, g);
    h.textContent = `${stack.length}`;
    // What is under: the colour of the piece below, as a band.
    const below = stack[stack.length - 2][0] === 'w' ? 'white' : 'black';
    el('polygon', { points: hexPoints(q, r, R - 0.5), class: `under ${below}` }, g);
  }
}

function arrow(layer, path, cls) {
  const pts = path.map(([q, r]) => center(q, r).map((v) => v.toFixed(1)).join(',')).join(' ');
  el('polyline', { points: pts, class: cls, 'marker-end': `url(#${cls}-head)` }, layer);
}

function defs(svg) {
  const d = el('defs', {}, svg);
  for (const cls of ['fact-path', 'move-arrow']) {
    const m = el('marker', { id: `${cls}-head`, viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' }, d);
    el('path', { d: 'M0,0 L10,5 L0,10 z', class: `${cls}-head` }, m);
  }
  const p = el('pattern', { id: 'illegal-hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, d);
  el('rect', { width: 6, height: 6, fill: '#fbe3e0' }, p);
  el('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#c0392b', 'stroke-width': 2 }, p);
}

export function drawBoard(container, view) {
  const sel = view.selected;
  const ex = view.explanation;
  const targets = new Map((sel ? sel.targets : []).filter((t) => t.cell).map((t) => [key(...t.cell), t]));
  const throws = new Map((sel ? sel.throws : []).filter((t) => t.cell).map((t) => [key(...t.cell), t]));
  const marks = ex ? ex.marks : [];
  const named = [...(ex && ex.cell ? [ex.cell] : []), ...marks.flatMap((m) => [...m.cells, ...m.path])];
  const { occupied, cells } = cellsToDraw(view, named);
  const { frame: f, moved } = frameFor(cells);
  const svg = el('svg', { viewBox: `${f.x0.toFixed(1)} ${f.y0.toFixed(1)} ${(f.x1 - f.x0).toFixed(1)} ${(f.y1 - f.y0).toFixed(1)}`, role: 'presentation' });
  const cols = (f.x1 - f.x0) / (R * SQRT3);
  svg.style.minWidth = `${Math.ceil(cols * MIN_RADIUS_PX * SQRT3)}px`;
  defs(svg);
  const last = new Set((view.lastMoveCells || []).map(([q, r]) => key(q, r)));
  const probed = ex && ex.cell ? key(...ex.cell) : null;
  if (!focused || !cells.some(([q, r]) => key(q, r) === key(...focused))) {
    const start = sel && sel.cell ? sel.cell : (view.cells[0] ? [view.cells[0].q, view.cells[0].r] : cells[0]);
    focused = start;
  }
  const cellLayer = el('g', { class: 'cells' }, svg);
  for (const [q, r] of cells) {
    const k = key(q, r);
    const stack = occupied.get(k);
    const target = targets.get(k);
    const thrown = throws.get(k);
    let extra = '';
    if (target) extra += `; legal destination: ${target.move}`;
    if (thrown) extra += `; throw: ${thrown.move}`;
    if (k === probed) extra += ex.legal ? '; explained, legal' : '; explained, illegal';
    if (last.has(k)) extra += '; last move';
    if (sel && sel.cell && key(...sel.cell) === k) extra += '; selected';
    const g = el('g', {
      class: `cell${stack ? ' occupied' : ''}`, 'data-q': q, 'data-r': r, role: 'button',
      tabindex: key(...focused) === k ? '0' : '-1', 'aria-label': cellName(q, r, stack, extra),
    }, cellLayer);
    el('polygon', { points: hexPoints(q, r), class: 'ground' }, g);
    if (stack) drawPiece(g, q, r, stack);
    if (last.has(k)) el('polygon', { points: hexPoints(q, r, R - 4), class: 'last-move' }, g);
    if (target) el('polygon', { points: hexPoints(q, r, R - 3), class: 'highlight', 'data-q': q, 'data-r': r }, g);
    if (thrown) el('polygon', { points: hexPoints(q, r, R - 3), class: 'throw-target', 'data-q': q, 'data-r': r }, g);
    if (k === probed) {
      el('polygon', { points: hexPoints(q, r, R - 3), class: ex.legal ? 'probe-legal' : 'probe-illegal' }, g);
      if (!ex.legal) {
        const [x, y] = center(q, r);
        el('path', { d: `M${x - 7},${y - 7} L${x + 7},${y + 7} M${x + 7},${y - 7} L${x - 7},${y + 7}`, class: 'probe-cross' }, g);
      }
    }
    if (sel && sel.cell && key(...sel.cell) === k) el('polygon', { points: hexPoints(q, r, R - 2), class: 'selected' }, g);
  }
  const overlay = el('g', { class: 'overlay' }, svg);
  for (const m of marks) {
    for (const [q, r] of m.cells) {
      const [x, y] = center(q, r);
      el('circle', { cx: x, cy: y, r: R * 0.82, class: 'fact-mark' }, overlay);
    }
    if (m.path.length > 1) arrow(overlay, m.path, 'fact-path');
  }
  if (ex && ex.from && ex.cell && !marks.some((m) => m.path.length > 1)) arrow(overlay, [ex.from, ex.cell], 'move-arrow');
  const hadFocus = container.contains(document.activeElement);
  container.replaceChildren(svg);
  if (moved) {
    // A new frame (a new game, or a hive that outgrew the old one): the
    // hive's middle in view when the board scrolls (a phone).
    container.scrollLeft = (container.scrollWidth - container.clientWidth) / 2;
    container.scrollTop = (container.scrollHeight - container.clientHeight) / 2;
  }
  if (hadFocus) {
    const g = container.querySelector(`.cell[data-q="${focused[0]}"][data-r="${focused[1]}"]`);
    if (g) g.focus();
  }
}

export function focusCell(container, cell) {
  for (const c of container.querySelectorAll('.cell[tabindex="0"]')) c.setAttribute('tabindex', '-1');
  cell.setAttribute('tabindex', '0');
  focused = [Number(cell.dataset.q), Number(cell.dataset.r)];
}

const DIRECTIONS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

// Arrow keys: the nearest drawn cell in that direction on screen, counting
// its distance plus how far it lies off the key's line, so that Up and Down
// reach the next row (half a cell aside) rather than skip it for the cell
// straight above or below two rows away: every cell can be reached.
export function moveFocus(container, cell, keyName) {
  const d = DIRECTIONS[keyName];
  if (!d) return false;
  const [x0, y0] = center(Number(cell.dataset.q), Number(cell.dataset.r));
  let best = null;
  let bestScore = Infinity;
  for (const c of container.querySelectorAll('.cell')) {
    const [x, y] = center(Number(c.dataset.q), Number(c.dataset.r));
    const along = (x - x0) * d[0] + (y - y0) * d[1];
    if (along <= 1) continue;
    const across = Math.abs((x - x0) * d[1] - (y - y0) * d[0]);
    const score = Math.hypot(x - x0, y - y0) + across;
    if (score < bestScore) { bestScore = score; best = c; }
  }
  if (!best) return true;
  focusCell(container, best);
  best.focus();
  return true;
}
