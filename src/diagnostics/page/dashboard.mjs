// The dashboard's page script: follows /events (server-sent events) and shows each compute's
// progress, the latest compute's task stream, workers busy or idle, memory, and errors.

import { drawMemory, drawTimeline, formatMs } from './draw.mjs';

/** A lane counts as busy while one of its tasks ended this recently (ms, task time). */
const BUSY_MS = 250;
const computes = new Map();
let scheduled = false;

function apply(e) {
  const key = `${e.pid}:${e.id}`;
  if (e.type === 'compute-start') {
    computes.set(key, { ...e, key, done: 0, status: 'running', lanes: [], tasks: [], memory: [] });
    return;
  }
  const c = computes.get(key);
  if (c === undefined) return;
  if (e.type === 'tasks') {
    c.done = e.done;
    c.lanes = e.lanes;
    c.tasks = c.tasks.concat(e.tasks).slice(-5000);
    c.memory = c.memory.concat(e.memory).slice(-2000);
  } else if (e.type === 'compute-end') {
    c.status = 'done';
    c.durationMs = e.durationMs;
  } else if (e.type === 'compute-error') {
    c.status = 'failed';
    c.error = { message: e.message, key: e.key, kernel: e.kernel };
  }
}

function cell(tr, text, cls) {
  const td = document.createElement('td');
  td.textContent = text;
  if (cls) td.className = cls;
  tr.appendChild(td);
  return td;
}

function renderComputes(list) {
  const tbody = document.querySelector('#computes tbody');
  tbody.textContent = '';
  for (const c of list.slice().reverse()) {
    const tr = document.createElement('tr');
    tr.dataset.key = c.key;
    tr.className = `compute ${c.status}`;
    cell(tr, c.key);
    cell(tr, `${c.scheduler} × ${c.workers}`);
    const bar = document.createElement('progress');
    bar.max = Math.max(1, c.total);
    bar.value = c.done;
    cell(tr, '').appendChild(bar);
    cell(tr, `${c.done} / ${c.total}`, 'count');
    cell(tr, c.status === 'done' ? `done in ${formatMs(c.durationMs)}` : c.status, 'status');
    tbody.appendChild(tr);
  }
}

function renderWorkers(c) {
  const ul = document.getElementById('workers');
  ul.textContent = '';
  const latest = c.tasks.reduce((m, t) => Math.max(m, t.end), 0);
  c.lanes.forEach((name, i) => {
    const mine = c.tasks.filter((t) => t.lane === i);
    const busy = c.status === 'running' && mine.some((t) => t.end > latest - BUSY_MS);
    const li = document.createElement('li');
    li.className = busy ? 'worker busy' : 'worker idle';
    li.dataset.lane = name;
    li.textContent = `${name}: ${busy ? 'busy' : 'idle'} (${mine.length} tasks shown)`;
    ul.appendChild(li);
  });
}

function renderErrors(list) {
  const ul = document.getElementById('errors');
  ul.textContent = '';
  for (const c of list) {
    if (c.error === undefined) continue;
    const li = document.createElement('li');
    li.className = 'error';
    li.textContent = `${c.key}: ${c.error.key ? `task ${c.error.key}: ` : ''}${c.error.message}`;
    ul.appendChild(li);
  }
}

function render() {
  scheduled = false;
  const list = [...computes.values()];
  renderComputes(list);
  renderErrors(list);
  const c = list[list.length - 1];
  if (c === undefined) return;
  document.getElementById('done').textContent = String(c.done);
  document.getElementById('total').textContent = String(c.total);
  document.getElementById('latest').textContent = `${c.key} (${c.status})`;
  renderWorkers(c);
  drawTimeline(document.getElementById('timeline'), c.lanes, c.tasks);
  drawMemory(document.getElementById('memory'), c.memory);
}

function later() {
  if (scheduled) return;
  scheduled = true;
  setTimeout(render, 100);
}

const status = document.getElementById('status');
const source = new EventSource('events');
source.addEventListener('open', () => {
  status.textContent = 'live';
});
source.addEventListener('error', () => {
  status.textContent = 'disconnected (retrying)';
});
source.addEventListener('snapshot', (m) => {
  computes.clear();
  for (const c of JSON.parse(m.data)) computes.set(c.key, c);
  later();
});
source.addEventListener('message', (m) => {
  apply(JSON.parse(m.data));
  later();
});
