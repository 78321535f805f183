/// A part of the operator console's script (see ``ConsoleAssets/script``).
enum ConsoleRoutingVersionsScript {
    /// The routing page's versions card: the versions page by page, a field-by-field diff of one against the
    /// current routing, and restoring one as a new version (its rules saved again, based on the current version).
    static let source = #"""
        const VERSIONS_PAGE = 10;

        /// What differs between two lists of rules, field by field: rules are paired by id, then by name; each
        /// entry is `{ rule, change: "added" | "removed" | "changed", field, from, to }`.
        function routingDiff(from, to, accountName) {
          const show = (x) => Array.isArray(x) ? (x.length ? x.join(", ") : "—") : (x === undefined || x === null ? "—" : String(x));
          const fields = {
            name: (r) => r.name, countries: (r) => (r.match || {}).countries, currencies: (r) => (r.match || {}).currencies,
            methods: (r) => (r.match || {}).methods, min_amount: (r) => (r.match || {}).min_amount,
            max_amount: (r) => (r.match || {}).max_amount, accounts: (r) => (r.accounts || []).map(accountName),
            strategy: (r) => r.strategy, weights: (r) => r.weights, max_rate_loss: (r) => r.max_rate_loss };
          const partner = (rule, rules) => rules.find((r) => r.id && r.id === rule.id) || rules.find((r) => r.name === rule.name);
          const out = [];
          from.forEach((old, i) => {
            const now = partner(old, to);
            if (!now) { out.push({ rule: old.name, change: "removed", field: "", from: "rule " + (i + 1), to: "—" }); return; }
            const position = to.indexOf(now);
            if (position !== i) out.push({ rule: old.name, change: "changed", field: "position", from: i + 1, to: position + 1 });
            for (const [field, read] of Object.entries(fields)) {
              const [a, b] = [show(read(old)), show(read(now))];
              if (a !== b) out.push({ rule: now.name, change: "changed", field, from: a, to: b });
            }
          });
          to.forEach((now, i) => {
            if (!partner(now, from)) out.push({ rule: now.name, change: "added", field: "", from: "—", to: "rule " + (i + 1) });
          });
          return out;
        }

        function diffTable(version, current, accountName) {
          const kinds = { added: "ok", removed: "bad", changed: "warn" };
          const rows = routingDiff(version.rules, current.rules || [], accountName).map((d) =>
            h("tr", { class: "diff-row", "data-change": d.change, "data-field": d.field }, h("td", {}, d.rule),
              h("td", {}, badge(d.change, kinds[d.change])), h("td", { class: "diff-field" }, d.field),
              h("td", { class: "diff-from" }, d.from), h("td", { class: "diff-to" }, d.to)));
          return h("div", { id: "version-diff" }, h("h3", {}, "Version " + version.version + " against the current version " +
            current.version), table(["Rule", "Change", "Field", "Version " + version.version, "Current"], rows,
            "No difference: version " + version.version + " has the current rules."));
        }

        async function routingVersions(ctx) {
          const body = h("div", { id: "versions-table" });
          const diff = h("div", {});
          const error = h("p", { class: "error", role: "alert", id: "versions-error" });
          const pager = h("div", { class: "inline" });
          const cursors = [null];
          const restore = async (v) => {
            try {
              error.textContent = "";
              const saved = await api("PUT", ctx.base, { rules: v.rules, version: ctx.current.version });
              state.routingNote = "Version " + v.version + " restored as version " + saved.version;
              toast(state.routingNote);
              await refresh();
            } catch (e) {
              error.textContent = (e.code ? e.code + ": " : "") + e.message +
                (e.issues || []).map((i) => " · " + i.rule_name + ": " + i.message).join("");
            }
          };
          const load = async () => {
            const cursor = cursors[cursors.length - 1];
            const page = await attempt(() => api("GET", ctx.base + "/versions?limit=" + VERSIONS_PAGE +
              (cursor ? "&starting_after=" + encodeURIComponent(cursor) : "")), error);
            if (!page) return;
            body.replaceChildren(table(["Version", "Written by", "When", "Rules", ""], page.data.map((v) => {
              const current = v.version === ctx.current.version;
              return h("tr", { class: "version-row", "data-version": v.version },
                h("td", {}, String(v.version), " ", current ? badge("current", "info") : null), h("td", {}, v.actor),
                h("td", {}, when(v.created_at)), h("td", {}, v.rules.map((r) => r.name).join(", ") || "—"),
                h("td", {}, h("button", { type: "button", class: "small ghost version-diff",
                  onclick: () => diff.replaceChildren(diffTable(v, ctx.current, ctx.accountName)) }, "Diff"), " ",
                  current ? null : h("button", { type: "button", class: "small version-restore", "data-perm": "routing.manage", onclick: () => restore(v) },
                    "Restore as new version")));
            }), "No routing saved yet."));
            pager.replaceChildren(
              cursors.length > 1 ? h("button", { type: "button", class: "small ghost", id: "versions-newer",
                onclick: () => { cursors.pop(); load(); } }, "← Newer") : null,
              page.has_more ? h("button", { type: "button", class: "small ghost", id: "versions-older",
                onclick: () => { cursors.push(page.next_cursor); load(); } }, "Older →") : null);
          };
          ctx.saved.push(() => { cursors.splice(1); diff.replaceChildren(); return load(); });
          await load();
          return h("div", { class: "card", id: "versions-card" }, h("h1", {}, "Versions"),
            h("p", { class: "muted" }, "Every saved routing, newest first. Restoring saves a version's rules again as a new " +
              "version."), body, pager, error, diff);
        }
        """#
}
