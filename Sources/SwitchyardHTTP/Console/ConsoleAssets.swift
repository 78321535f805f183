/// The operator console's files, shipped inside the binary: one page, one stylesheet, one script (the
/// script is kept in several parts, one per group of views, and served as one file).
enum ConsoleAssets {
    /// The whole script: the core (sign-in, API calls, helpers) then the views.
    static let script = [
        ConsoleCoreScript.source, ConsoleTenantsScript.source, ConsoleRoutingScript.source,
        ConsoleRoutingStatsScript.source, ConsoleRoutingVersionsScript.source, ConsoleRoutingReplayScript.source,
        ConsoleRoutingRolloutScript.source, ConsoleOperationsScript.source, ConsolePolicyScript.source,
        ConsoleDisputesScript.source,
    ].joined(separator: "\n")

    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>Switchyard console</title>
        <link rel="stylesheet" href="/console/app.css">
        <script src="/console/app.js" defer></script>
        </head>
        <body>
        <header class="top">
          <span class="brand">Switchyard</span><span class="subtitle">operator console</span>
          <span class="spacer"></span>
          <label class="tenant-picker" id="tenant-picker" hidden>Tenant
            <select id="tenant-select"></select>
          </label>
          <span id="whoami" class="muted"></span>
          <button type="button" id="sign-out" class="ghost" hidden>Sign out</button>
        </header>
        <section id="signin" class="card narrow">
          <h1>Sign in</h1>
          <p class="muted">Paste the operator token. It stays in this browser tab only (session storage)
          and is sent as a bearer token to the admin API.</p>
          <form id="signin-form" autocomplete="off">
            <label>Operator token <input type="password" id="token" required autocomplete="off"></label>
            <button type="submit" id="signin-button">Sign in</button>
            <p id="signin-error" class="error" role="alert"></p>
          </form>
        </section>
        <div id="app" hidden>
          <nav id="nav">
            <button type="button" data-view="tenants">Tenants &amp; keys</button>
            <button type="button" data-view="accounts">Provider accounts</button>
            <button type="button" data-view="routing">Routing</button>
            <button type="button" data-view="health">Provider health</button>
            <button type="button" data-view="review">Review queue</button>
            <button type="button" data-view="webhooks">Webhooks</button>
            <button type="button" data-view="payments">Payments</button>
            <button type="button" data-view="disputes">Disputes</button>
            <button type="button" data-view="plugins">Plugins</button>
            <button type="button" data-view="audit">Audit log</button>
          </nav>
          <main id="view"></main>
        </div>
        <div id="toast" role="status" aria-live="polite"></div>
        </body>
        </html>
        """#

    static let css = #"""
        :root { --bg:#f5f6f8; --card:#fff; --ink:#1d2330; --muted:#667085; --line:#e3e6eb; --accent:#2f5bea;
          --ok:#137a3f; --ok-bg:#e3f6ea; --bad:#b42318; --bad-bg:#fdebea; --warn:#8a5a00; --warn-bg:#fff4d6;
          --info-bg:#e8eefc; }
        * { box-sizing: border-box; }
        body { margin:0; font:14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background:var(--bg);
          color:var(--ink); }
        header.top { display:flex; align-items:center; gap:12px; padding:10px 20px; background:#141a2a; color:#fff; }
        .brand { font-weight:700; font-size:17px; letter-spacing:.3px; }
        .subtitle { color:#a9b3c9; }
        .spacer { flex:1; }
        .tenant-picker { color:#cfd6e6; display:flex; gap:6px; align-items:center; }
        .tenant-picker select { min-width:220px; }
        nav#nav { display:flex; flex-wrap:wrap; gap:4px; padding:8px 20px; background:#fff; border-bottom:1px solid var(--line); }
        nav#nav button { background:none; color:var(--ink); border:0; border-bottom:2px solid transparent; border-radius:0;
          padding:8px 10px; }
        nav#nav button.active { border-bottom-color:var(--accent); color:var(--accent); font-weight:600; }
        main#view { padding:20px; max-width:1300px; }
        .card { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:16px 18px; margin-bottom:16px; }
        .card.narrow { max-width:460px; margin:60px auto; }
        h1 { font-size:20px; margin:0 0 8px; } h2 { font-size:16px; margin:0 0 10px; } h3 { font-size:14px; margin:14px 0 6px; }
        .muted { color:var(--muted); }
        .error { color:var(--bad); min-height:1em; }
        .columns { display:grid; grid-template-columns: 3fr 2fr; gap:16px; align-items:start; }
        table { width:100%; border-collapse:collapse; }
        th, td { text-align:left; padding:6px 8px; border-bottom:1px solid var(--line); vertical-align:top; }
        th { font-size:12px; text-transform:uppercase; letter-spacing:.4px; color:var(--muted); font-weight:600; }
        tr.selected td { background:var(--info-bg); }
        code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size:12.5px; }
        .badge { display:inline-block; padding:1px 8px; border-radius:10px; font-size:12px; font-weight:600; background:#eef0f4; }
        .badge.ok { background:var(--ok-bg); color:var(--ok); } .badge.bad { background:var(--bad-bg); color:var(--bad); }
        .badge.warn { background:var(--warn-bg); color:var(--warn); } .badge.info { background:var(--info-bg); color:var(--accent); }
        .inline { display:flex; flex-wrap:wrap; gap:8px; align-items:flex-end; margin:4px 0; }
        label { display:flex; flex-direction:column; gap:3px; font-size:12px; color:var(--muted); }
        label.check { flex-direction:row; align-items:center; gap:6px; color:var(--ink); font-size:13px; }
        input, select, textarea { font:inherit; padding:6px 8px; border:1px solid #c9ced8; border-radius:6px; background:#fff; color:var(--ink); }
        button { font:inherit; padding:6px 12px; border-radius:6px; border:1px solid var(--accent); background:var(--accent); color:#fff; cursor:pointer; }
        button.ghost { background:transparent; color:inherit; border-color:#8792a8; }
        button.small { padding:2px 8px; font-size:12px; }
        button.danger { background:#fff; color:var(--bad); border-color:var(--bad); }
        input[type=file] { max-width:190px; }
        .secret-once { background:var(--warn-bg); border:1px solid #f1d48a; padding:10px 12px; border-radius:6px; margin:10px 0; }
        .secret-once code { font-size:13px; user-select:all; word-break:break-all; }
        .rule { border:1px solid var(--line); border-radius:6px; padding:10px; margin-bottom:10px; background:#fbfcfd; }
        .rule .grid { display:grid; grid-template-columns: repeat(3, 1fr); gap:8px; }
        .kv { display:grid; grid-template-columns: 140px 1fr; gap:4px 10px; }
        .kv dt { color:var(--muted); } .kv dd { margin:0; }
        .rule label[hidden] { display:none; }
        .interval .track { fill:#eef0f4; } .interval .bounds { fill:#9db4f5; } .interval .rate { fill:var(--accent); }
        #replay-card label[hidden] { display:none; }
        .rollout-chart { display:block; margin:6px 0 10px; } .rollout-chart text { font-size:11px; fill:var(--muted); }
        .rollout-chart .axis { stroke:#c9ced8; } .rollout-chart .zero { stroke:#8792a8; stroke-width:1; }
        .rollout-chart .guardrail { stroke:var(--bad); stroke-dasharray:4 3; }
        .rollout-chart .interval-band { fill:#9db4f5; opacity:.45; }
        polyline.curve { stroke-width:2; } circle.curve { stroke:none; }
        .curve-control { stroke:#8792a8; } circle.curve-control { fill:#8792a8; }
        .curve-draft { stroke:var(--accent); } circle.curve-draft { fill:var(--accent); }
        .curve-difference { stroke:#141a2a; } circle.curve-difference { fill:#141a2a; }
        .legend .key::before { content:""; display:inline-block; width:14px; height:3px; margin-right:4px; vertical-align:middle; }
        .legend .key-control::before { background:#8792a8; } .legend .key-draft::before { background:var(--accent); }
        .toolbar h1 { margin:0; }
        .empty { color:var(--muted); font-style:italic; padding:8px 0; }
        .toolbar { display:flex; gap:8px; align-items:center; margin-bottom:10px; }
        #toast { position:fixed; bottom:16px; right:16px; background:#141a2a; color:#fff; padding:8px 14px; border-radius:6px;
          opacity:0; transition:opacity .2s; pointer-events:none; }
        #toast.show { opacity:.95; } #toast.bad { background:var(--bad); }
        """#
}
