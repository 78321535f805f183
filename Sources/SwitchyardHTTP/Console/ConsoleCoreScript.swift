/// A part of the operator console's script (see ``ConsoleAssets/script``).
enum ConsoleCoreScript {
    /// Sign-in, admin API calls, DOM helpers and the view switcher.
    static let source = #"""
        "use strict";
        const TOKEN_KEY = "switchyard.operatorToken";
        const state = { tenants: [], tenant: null, view: "tenants", me: null };
        /// Every permission of the bootstrap token, assumed when the API has no `GET /admin/v1/me`.
        const ALL_PERMISSIONS = ["platform.read", "payments.act", "review.resolve", "webhooks.replay", "webhooks.manage",
          "tenants.manage", "keys.manage", "accounts.manage", "routing.manage", "policy.manage", "plugins.manage",
          "operators.manage", "disputes.act"];
        /// Whether the signed-in operator holds `permission` (the API refuses the action anyway).
        const can = (permission) => !!state.me && state.me.permissions.includes(permission);
        const views = {};

        function h(tag, attrs, ...children) {
          const el = document.createElement(tag);
          if (attrs && attrs["data-perm"] && !can(attrs["data-perm"])) { el.hidden = true; el.disabled = true; }
          for (const [k, v] of Object.entries(attrs || {})) {
            if (v === undefined || v === null || v === false) continue;
            if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
            else if (k === "class") el.className = v;
            else el.setAttribute(k, v === true ? "" : String(v));
          }
          for (const c of children.flat()) {
            if (c === undefined || c === null || c === false) continue;
            el.append(c instanceof Node ? c : document.createTextNode(String(c)));
          }
          return el;
        }
        const $ = (sel, root) => (root || document).querySelector(sel);
        const badge = (text, kind) => h("span", { class: "badge " + (kind || "") }, text);
        const when = (d) => d ? new Date(d).toLocaleString() : "—";
        const money = (minor, cur) => {
          const digits = ["JPY", "KRW", "VND", "CLP", "ISK"].includes(cur) ? 0 : 2;
          return (Number(minor) / Math.pow(10, digits)).toFixed(digits) + " " + cur;
        };
        function svg(tag, attrs, ...children) {
          const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
          for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
          el.append(...children);
          return el;
        }
        const list = (text) => String(text || "").split(",").map((s) => s.trim()).filter(Boolean);
        const shortId = (id) => id ? String(id).slice(0, 8) : "—";

        function table(headers, rows, empty) {
          if (!rows.length) return h("p", { class: "empty" }, empty || "Nothing here.");
          return h("table", {}, h("thead", {}, h("tr", {}, headers.map((x) => h("th", {}, x)))),
            h("tbody", {}, rows));
        }

        function toast(text, bad) {
          const t = $("#toast");
          t.textContent = text;
          t.className = "show" + (bad ? " bad" : "");
          clearTimeout(toast.timer);
          toast.timer = setTimeout(() => { t.className = ""; }, 3500);
        }

        class APIError extends Error {
          constructor(status, code, message, param, issues) {
            super(message);
            this.status = status; this.code = code; this.param = param || null; this.issues = issues || [];
          }
        }

        async function api(method, path, body, extraHeaders) {
          const headers = Object.assign({ "Authorization": "Bearer " + sessionStorage.getItem(TOKEN_KEY) }, extraHeaders || {});
          if (body !== undefined) headers["Content-Type"] = "application/json";
          const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body),
            cache: "no-store", credentials: "omit" });
          const text = await res.text();
          let json = null;
          try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
          if (!res.ok) {
            const err = (json && json.error) || {};
            if (res.status === 401 && !["/admin/v1/tenants", "/admin/v1/me"].includes(path.split("?")[0])) {
              signOut("Your session ended: sign in again.");
            }
            throw new APIError(res.status, err.code || "http_" + res.status, err.message || res.statusText, err.param,
              err.issues);
          }
          return json;
        }

        /// Runs an action, showing its failure (code and message) in `where` or as a toast.
        async function attempt(action, where) {
          if (where) where.textContent = "";
          try { return await action(); } catch (e) {
            const text = (e.code ? e.code + ": " : "") + (e.message || String(e));
            if (where) where.textContent = text; else toast(text, true);
            return undefined;
          }
        }

        /// Every item of a paged list (newest first), read 100 at a time following `next_cursor`, oldest first.
        async function listAll(path) {
          const items = [];
          let cursor = null;
          do {
            const page = await api("GET", path + "?limit=100" + (cursor ? "&starting_after=" + encodeURIComponent(cursor) : ""));
            items.push(...(page.data || []));
            cursor = page.has_more ? page.next_cursor : null;
          } while (cursor);
          return items.reverse();
        }

        async function loadTenants() {
          state.tenants = await listAll("/admin/v1/tenants");
          if (!state.tenant || !state.tenants.some((t) => t.id === state.tenant)) {
            state.tenant = state.tenants.length ? state.tenants[0].id : null;
          }
          const select = $("#tenant-select");
          select.replaceChildren(...state.tenants.map((t) => h("option", { value: t.id, selected: t.id === state.tenant },
            t.name)));
        }
        const tenantName = (id) => (state.tenants.find((t) => t.id === id) || {}).name || shortId(id);

        async function show(view) {
          state.view = view;
          for (const b of document.querySelectorAll("#nav button")) b.classList.toggle("active", b.dataset.view === view);
          const main = $("#view");
          main.replaceChildren(h("p", { class: "muted" }, "Loading…"));
          const node = await attempt(() => views[view]());
          if (node) { main.replaceChildren(node); applyPermissions(main); }
          else if (main.textContent === "Loading…") main.replaceChildren(h("p", { class: "error" }, "Could not load this view."));
        }
        const refresh = () => show(state.view);

        /// Removes every control marked `data-perm` whose permission the signed-in operator lacks.
        function applyPermissions(root) {
          for (const el of root.querySelectorAll("[data-perm]")) if (!can(el.dataset.perm)) el.remove();
        }

        /// Who the signed-in credential is: `GET /admin/v1/me`, or the bootstrap admin where the API answers 404.
        async function loadMe() {
          try {
            const me = await api("GET", "/admin/v1/me");
            state.me = { operator: me.operator || {}, permissions: me.permissions || [], breakGlass: !!me.break_glass };
          } catch (e) {
            if (e.status !== 404) throw e;
            state.me = { operator: { id: null, name: "bootstrap", role: "admin" }, permissions: ALL_PERMISSIONS, breakGlass: true };
          }
          const who = $("#whoami");
          if (who) who.textContent = state.me.operator.name + " · " + state.me.operator.role;
          document.body.dataset.role = state.me.operator.role;
        }

        async function signIn(token) {
          sessionStorage.setItem(TOKEN_KEY, token);
          try {
            await loadMe();
            await loadTenants();
          } catch (e) {
            sessionStorage.removeItem(TOKEN_KEY);
            throw e;
          }
          $("#signin").hidden = true;
          $("#app").hidden = false;
          $("#sign-out").hidden = false;
          $("#tenant-picker").hidden = false;
          await show(state.view);
        }

        function signOut(message) {
          sessionStorage.removeItem(TOKEN_KEY);
          state.me = null;
          if ($("#whoami")) $("#whoami").textContent = "";
          $("#app").hidden = true;
          $("#sign-out").hidden = true;
          $("#tenant-picker").hidden = true;
          $("#view").replaceChildren();
          $("#signin").hidden = false;
          $("#signin-error").textContent = message || "";
        }

        document.addEventListener("DOMContentLoaded", () => {
          $("#signin-form").addEventListener("submit", async (event) => {
            event.preventDefault();
            const input = $("#token");
            const token = input.value.trim();
            input.value = "";
            $("#signin-error").textContent = "";
            try { await signIn(token); } catch (e) {
              $("#signin-error").textContent = e.status === 401 ? "That token was not accepted." : e.message;
            }
          });
          $("#sign-out").addEventListener("click", () => signOut());
          $("#tenant-select").addEventListener("change", (e) => { state.tenant = e.target.value; refresh(); });
          for (const b of document.querySelectorAll("#nav button")) b.addEventListener("click", () => show(b.dataset.view));
          if (sessionStorage.getItem(TOKEN_KEY)) signIn(sessionStorage.getItem(TOKEN_KEY)).catch(() => signOut());
        });
        """#
}
