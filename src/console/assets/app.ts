/**
 * The console's browser module, served as `/console/app.js`. Plain JavaScript (no build step): it keeps
 * the key in sessionStorage, lists the key's stored sessions (GET /voice/sessions), follows live ones on
 * `/console/stream`, and renders one session at a time: transcript, verdict timeline (an inline SVG with
 * the level bands), tactics, intel and the filing outcome. Text goes in through textContent only.
 */
export const CONSOLE_JS = String.raw`
const LEVELS = [
  { name: 'clean', from: 0, to: 0.3 },
  { name: 'suspicious', from: 0.3, to: 0.6 },
  { name: 'likely_scam', from: 0.6, to: 0.85 },
  { name: 'scam', from: 0.85, to: 1 },
];
const BAND_COLOURS = { clean: '#2e9e5b', suspicious: '#c9a227', likely_scam: '#e0782b', scam: '#d64545' };
const SVG = 'http://www.w3.org/2000/svg';

const state = { key: sessionStorage.getItem('voice-key') || '', sessions: new Map(), selected: null, tuning: null };
const $ = (sel) => document.querySelector(sel);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') node.className = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : String(c));
  return node;
}

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  return node;
}

async function api(path) {
  const res = await fetch(path, { headers: { 'X-Auth': state.key } });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(body.message || ('HTTP ' + res.status)), { status: res.status });
  return body;
}

function session(id) {
  let s = state.sessions.get(id);
  if (!s) {
    s = { id, live: false, lines: [], points: [], errors: [], verdict: null, intel: null, ended: null, loaded: false };
    state.sessions.set(id, s);
  }
  return s;
}

function fromMeta(meta) {
  const s = session(meta.session_id);
  Object.assign(s, {
    kind: meta.kind, protocol: meta.protocol, from: meta.from, to: meta.to, call_id: meta.call_id,
    started_at: meta.started_at, live: meta.live, loaded: true,
  });
  return s;
}

function secondsSince(s, at) {
  const t0 = Date.parse(s.started_at || at);
  return Math.max(0, (Date.parse(at) - t0) / 1000);
}

function apply(s, e) {
  if (e.type === 'session.started') {
    s.started_at = s.started_at || e.at;
    if (e.persona) s.persona = e.persona.name;
  } else if (e.type === 'transcript.line') {
    s.lines.push({ speaker: e.speaker, text: e.text });
  } else if (e.type === 'verdict') {
    s.verdict = e.verdict;
    s.points.push({ t: secondsSince(s, e.at), score: e.verdict.score, level: e.verdict.level });
  } else if (e.type === 'session.error') {
    s.errors.push(e.error);
  } else if (e.type === 'session.ended') {
    s.verdict = e.verdict;
    s.intel = e.intel;
    s.ended = { reported: e.reported, reported_numbers: e.reported_numbers, duration: e.duration_seconds };
    s.points.push({ t: secondsSince(s, e.at), score: e.verdict.score, level: e.verdict.level, final: true });
    s.live = false;
  }
}

function onMessage(m) {
  if (m.type === 'snapshot') {
    for (const meta of m.sessions) {
      const s = fromMeta(meta);
      s.lines = []; s.points = []; s.errors = [];
      for (const e of meta.events) apply(s, e);
      s.live = meta.live;
    }
  } else if (m.type === 'session') {
    const s = fromMeta(m.session);
    if (!state.selected || !session(state.selected).live) state.selected = s.id;
  } else if (m.type === 'event') {
    apply(session(m.session_id), m.event);
  } else if (m.type === 'closed') {
    session(m.session_id).live = false;
  }
  render();
}

function connect() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(proto + '//' + location.host + '/console/stream?key=' + encodeURIComponent(state.key));
  ws.onopen = () => { $('#status').textContent = 'live'; $('#status').className = 'live'; };
  ws.onmessage = (msg) => onMessage(JSON.parse(msg.data));
  ws.onclose = () => {
    $('#status').textContent = 'disconnected; retrying';
    $('#status').className = '';
    setTimeout(connect, 2000);
  };
}

async function start() {
  try {
    const caps = await fetch('/voice/capabilities').then((r) => r.json());
    const c = caps.capabilities || {};
    $('#node').textContent = 'llm ' + c.llm + ' · stt ' + c.stt + ' · tts ' + c.tts;
    const list = await api('/voice/sessions?limit=50');
    for (const rec of list.sessions) {
      const s = session(rec.id);
      if (!s.loaded) Object.assign(s, { kind: rec.kind, protocol: rec.protocol, from: rec.from, call_id: rec.call_id,
        started_at: rec.started_at, record: rec, verdict: { score: rec.score, level: rec.level, category: rec.category, tactics: [] } });
    }
    state.tuning = (await api('/console/tuning')).tuning;
  } catch (err) {
    if (err.status === 401) {
      sessionStorage.removeItem('voice-key');
      state.key = '';
      return showLogin('wrong key');
    }
    $('#status').textContent = String(err.message || err);
  }
  $('#login').hidden = true;
  $('#app').hidden = false;
  connect();
  render();
}

function showLogin(problem) {
  $('#login').hidden = false;
  $('#app').hidden = true;
  $('#status').textContent = problem || 'enter an API key';
}

async function select(id) {
  state.selected = id;
  const s = session(id);
  if (!s.loaded && !s.detail) {
    try {
      const d = await api('/voice/sessions/' + encodeURIComponent(id));
      s.detail = d;
      s.verdict = d.verdict;
      s.intel = d.intel;
      s.ended = { reported: d.session.reported, duration: d.session.duration_seconds };
      s.lines = (d.session.transcript || '').split('\n').filter(Boolean).map((line) => {
        const at = line.indexOf(': ');
        return at > 0 ? { speaker: line.slice(0, at), text: line.slice(at + 2) } : { speaker: '', text: line };
      });
      s.points = [{ t: d.session.duration_seconds || 0, score: d.verdict.score, level: d.verdict.level, final: true }];
    } catch (err) {
      s.errors = [String(err.message || err)];
    }
  }
  render();
}

let pending = false;
function render() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => { pending = false; renderNow(); });
}

function levelBadge(level) {
  return el('span', { class: 'badge level lvl-' + level }, level);
}

function renderNow() {
  const ul = $('#sessions');
  ul.replaceChildren();
  const all = [...state.sessions.values()].sort((a, b) =>
    (b.live - a.live) || String(b.started_at).localeCompare(String(a.started_at)));
  for (const s of all) {
    const li = el('li', { 'data-session-id': s.id, class: s.id === state.selected ? 'selected' : '', onclick: () => select(s.id) },
      s.live ? el('span', { class: 'badge live' }, 'live') : null, ' ',
      s.verdict ? levelBadge(s.verdict.level) : null, ' ',
      el('strong', {}, s.kind || ''), ' ', s.from || s.call_id || '',
      el('div', { class: 'meta' }, (s.started_at || '').replace('T', ' ').slice(0, 19) + ' · ' + (s.protocol || '') + ' · ' + s.id.slice(0, 8)));
    ul.append(li);
  }
  const detail = $('#detail');
  if (!state.selected) {
    detail.replaceChildren(el('p', { class: 'meta' }, 'Select a session. Live calls of this key appear here as they start.'), tuningView());
    return;
  }
  detail.replaceChildren(detailView(session(state.selected)));
}

function detailView(s) {
  const v = s.verdict || { score: 0, level: 'clean', category: 'none', tactics: [] };
  const root = el('div', { class: 'session', 'data-session-id': s.id, 'data-live': String(s.live) });
  root.append(
    el('h2', {}, (s.kind || 'session') + ' ' + (s.from || '') + (s.persona ? ' · persona ' + s.persona : '')),
    el('div', {}, el('span', { class: 'score' }, v.score.toFixed(2)), levelBadge(v.level), ' ',
      el('span', { class: 'category' }, v.category), s.live ? el('span', { class: 'badge live' }, 'live') : null),
    el('section', {}, el('h3', {}, 'Verdict timeline'), timeline(s)),
    el('section', {}, el('h3', {}, 'Tactics'),
      el('div', { class: 'chips tactics' }, ...(v.tactics || []).map((t) => el('span', {}, t)))),
    el('section', {}, el('h3', {}, 'Transcript'),
      el('div', { class: 'transcript' }, ...s.lines.map((l) =>
        el('div', { class: 'line' }, el('span', { class: 'who' }, l.speaker), l.text)))),
    el('section', {}, el('h3', {}, 'Intel'), intelView(s.intel)),
    el('section', {}, el('h3', {}, 'Filing'), el('div', { class: 'filing' }, filingText(s))),
  );
  if (v.summary) root.append(el('section', {}, el('h3', {}, 'Summary'), el('p', {}, v.summary)));
  if (s.errors.length) root.append(el('section', {}, el('h3', {}, 'Errors'), ...s.errors.map((e) => el('div', {}, e))));
  return root;
}

function filingText(s) {
  if (!s.ended) return s.live ? 'call in progress' : 'unknown';
  if (!s.ended.reported) return 'not filed';
  return 'filed: ' + (s.ended.reported_numbers !== undefined ? s.ended.reported_numbers + ' number(s)' : 'yes');
}

function intelView(intel) {
  const dl = el('dl', { class: 'intel' });
  for (const [k, v] of Object.entries(intel || {})) dl.append(el('dt', {}, k), el('dd', {}, Array.isArray(v) ? v.join(', ') : v));
  if (!dl.children.length) dl.append(el('dd', {}, 'none yet'));
  return dl;
}

function tuningView() {
  const t = state.tuning;
  if (!t) return el('div');
  const table = el('table', { class: 'tuning' });
  for (const [k, v] of Object.entries(t)) table.append(el('tr', {}, el('td', {}, k), el('td', {}, String(v))));
  return el('section', { id: 'tuning' }, el('h3', {}, 'Tuning in force'), table);
}

function timeline(s) {
  const W = 640, H = 180, L = 40, R = 10, T = 8, B = 22;
  const root = svg('svg', { class: 'timeline', width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img' });
  const now = s.live && s.started_at ? (Date.now() - Date.parse(s.started_at)) / 1000 : 0;
  const tmax = Math.max(10, now, ...s.points.map((p) => p.t));
  const x = (t) => L + (t / tmax) * (W - L - R);
  const y = (score) => T + (1 - score) * (H - T - B);
  for (const band of LEVELS) {
    root.append(svg('rect', { class: 'band band-' + band.name, x: L, width: W - L - R, y: y(band.to), height: y(band.from) - y(band.to),
      fill: BAND_COLOURS[band.name], 'fill-opacity': 0.16 }));
    const label = svg('text', { x: 4, y: y(band.from) - 2, fill: '#8a9aab', 'font-size': 10 });
    label.textContent = band.from.toFixed(2);
    root.append(label);
  }
  const axis = svg('text', { x: W - R, y: H - 6, fill: '#8a9aab', 'font-size': 10, 'text-anchor': 'end' });
  axis.textContent = Math.round(tmax) + ' s';
  root.append(axis);
  if (s.points.length) {
    const pts = s.points.map((p) => x(p.t).toFixed(1) + ',' + y(p.score).toFixed(1)).join(' ');
    root.append(svg('polyline', { points: pts, fill: 'none', stroke: '#dde6ee', 'stroke-width': 2 }));
    for (const p of s.points) {
      root.append(svg('circle', { class: 'point', cx: x(p.t), cy: y(p.score), r: p.final ? 6 : 4,
        fill: BAND_COLOURS[p.level], 'data-score': p.score, 'data-level': p.level }));
    }
  }
  return root;
}

$('#login').addEventListener('submit', (ev) => {
  ev.preventDefault();
  state.key = $('#key').value.trim();
  sessionStorage.setItem('voice-key', state.key);
  start();
});

setInterval(() => { if (state.selected && session(state.selected).live) render(); }, 1000);

if (state.key) start(); else showLogin();
`;
