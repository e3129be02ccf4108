/** The console page: static HTML (no key inside); the script asks for the key and uses it for its calls. */
export const CONSOLE_HTML = String.raw`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>voice console</title>
<style>
  :root { --bg:#0f1419; --panel:#182029; --line:#2a3643; --text:#dde6ee; --dim:#8a9aab;
          --clean:#2e9e5b; --suspicious:#c9a227; --likely_scam:#e0782b; --scam:#d64545; }
  * { box-sizing: border-box; }
  [hidden] { display: none !important; }
  body { margin:0; font:14px/1.4 system-ui, sans-serif; background:var(--bg); color:var(--text); }
  header { display:flex; gap:1rem; align-items:center; padding:.6rem 1rem; border-bottom:1px solid var(--line); }
  header h1 { font-size:1rem; margin:0; }
  #status { color:var(--dim); }
  #status.live { color:var(--clean); }
  form#login { margin:4rem auto; max-width:28rem; display:flex; gap:.5rem; }
  input, button { font:inherit; padding:.4rem .6rem; border-radius:4px; border:1px solid var(--line);
                  background:var(--panel); color:var(--text); }
  button { cursor:pointer; }
  main { display:grid; grid-template-columns: 22rem 1fr; height: calc(100vh - 3rem); }
  #sessions { overflow:auto; border-right:1px solid var(--line); margin:0; padding:0; list-style:none; }
  #sessions li { padding:.5rem .8rem; border-bottom:1px solid var(--line); cursor:pointer; }
  #sessions li.selected { background:var(--panel); }
  #sessions .meta { color:var(--dim); font-size:12px; }
  .badge { display:inline-block; padding:0 .4rem; border-radius:3px; font-size:12px; color:#fff; }
  .badge.live { background:#1f6feb; }
  .lvl-clean { background:var(--clean); } .lvl-suspicious { background:var(--suspicious); }
  .lvl-likely_scam { background:var(--likely_scam); } .lvl-scam { background:var(--scam); }
  #detail { overflow:auto; padding:1rem 1.2rem; }
  #detail h2 { margin:.2rem 0 .6rem; font-size:1.1rem; }
  .score { font-size:2rem; font-weight:600; margin-right:.6rem; }
  .chips span { display:inline-block; margin:.15rem; padding:.05rem .45rem; border:1px solid var(--line); border-radius:10px; }
  .transcript { background:var(--panel); padding:.6rem .8rem; border-radius:4px; max-height:20rem; overflow:auto; }
  .transcript div { margin:.15rem 0; }
  .transcript .who { color:var(--dim); margin-right:.4rem; }
  dl.intel { display:grid; grid-template-columns: max-content 1fr; gap:.2rem .8rem; }
  dl.intel dt { color:var(--dim); }
  dl.intel dd { margin:0; }
  section { margin:1rem 0; }
  section h3 { font-size:.9rem; color:var(--dim); margin:.2rem 0 .4rem; text-transform:uppercase; letter-spacing:.04em; }
  table.tuning td { padding:.1rem .8rem .1rem 0; }
  svg.timeline { background:var(--panel); border-radius:4px; }
</style>
</head>
<body>
<header><h1>voice console</h1><span id="status">not connected</span><span id="node"></span></header>
<form id="login" hidden>
  <input id="key" type="password" placeholder="API key" autocomplete="off" required>
  <button type="submit">Open</button>
</form>
<main id="app" hidden>
  <ul id="sessions"></ul>
  <div id="detail"><p class="meta">Select a session. Live calls of this key appear here as they start.</p></div>
</main>
<script type="module" src="/console/app.js"></script>
</body>
</html>
`;
