'use strict';
(function () {
  const size = 5;
  const board = document.getElementById('board');
  let lights = [];
  let moves = 0;
  let level = 1;
  let score = 0;
  let focus = 12;
  const best = Number(localStorage.getItem('lights.best') || 0);
  document.getElementById('best').textContent = best;

  function toggle(index) {
    const row = Math.floor(index / size);
    const column = index % size;
    for (const [r, c] of [[row, column], [row - 1, column], [row + 1, column], [row, column - 1], [row, column + 1]]) {
      if (r >= 0 && r < size && c >= 0 && c < size) lights[r * size + c] = !lights[r * size + c];
    }
  }

  function newBoard() {
    lights = new Array(size * size).fill(false);
    // Random presses from the solved board: always solvable.
    for (let i = 0; i < 3 + level * 2; i++) toggle(Math.floor(Math.random() * size * size));
    if (lights.every((on) => !on)) toggle(12);
    moves = 0;
    draw();
  }

  function draw() {
    board.replaceChildren(...lights.map((on, index) => {
      const cell = document.createElement('button');
      cell.className = 'cell' + (on ? ' on' : '');
      cell.setAttribute('role', 'gridcell');
      cell.setAttribute('aria-label', 'Row ' + (Math.floor(index / size) + 1) + ', column ' + (index % size + 1) + (on ? ', on' : ', off'));
      cell.tabIndex = index === focus ? 0 : -1;
      cell.addEventListener('click', () => press(index));
      return cell;
    }));
    document.getElementById('moves').textContent = moves;
    document.getElementById('level').textContent = level;
    document.getElementById('score').textContent = score;
  }

  function press(index) {
    focus = index;
    toggle(index);
    moves++;
    draw();
    board.children[focus].focus();
    if (lights.every((on) => !on)) {
      score += Math.max(10, 100 - moves * 5) * level;
      const record = Math.max(score, Number(localStorage.getItem('lights.best') || 0));
      localStorage.setItem('lights.best', String(record));
      document.getElementById('best').textContent = record;
      document.getElementById('message').textContent = 'Level ' + level + ' cleared in ' + moves + ' moves!';
      if (window.PWAKit) PWAKit.call('haptics', 'notification', { type: 'success' }).catch(() => {});
      level++;
      setTimeout(newBoard, 900);
    }
  }

  board.addEventListener('keydown', (event) => {
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -size, ArrowDown: size };
    if (event.key in moves) {
      const next = focus + moves[event.key];
      if (next >= 0 && next < size * size) {
        focus = next;
        draw();
        board.children[focus].focus();
      }
      event.preventDefault();
    }
  });
  document.getElementById('restart').addEventListener('click', () => {
    document.getElementById('message').textContent = '';
    newBoard();
  });

  newBoard();
  if (window.PWAKit) PWAKit.ready().catch(() => {});
})();
