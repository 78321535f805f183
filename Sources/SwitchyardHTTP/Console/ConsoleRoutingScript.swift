/// A part of the operator console's script (see ``ConsoleAssets/script``).
enum ConsoleRoutingScript {
    /// The routing page: the rule editor (strategies included) with the simulator beside it, then the statistics
    /// and versions (``ConsoleRoutingStatsScript``, ``ConsoleRoutingVersionsScript``) and room for further panels.
    static let source = #"""
        const STRATEGIES = ["ordered", "weighted", "adaptive"];

        function ruleEditor(rule, accounts, onRemove) {
          const m = rule.match || {};
          const field = (label, cls, value, extra) => h("label", { class: cls + "-field" }, label,
            h("input", Object.assign({ class: cls, value: value === undefined || value === null ? "" : value }, extra || {})));
          const picks = h("div", { class: "rule-accounts" });
          const addPick = (id) => picks.append(h("div", { class: "inline" }, h("select", { class: "rule-account" },
            h("option", { value: "" }, "— account —"),
            accounts.map((a) => h("option", { value: a.id, selected: a.id === id }, a.name + " · " + a.plugin))),
            h("button", { type: "button", class: "small ghost", onclick: (e) => e.target.parentNode.remove() }, "✕")));
          (rule.accounts && rule.accounts.length ? rule.accounts : [""]).forEach((id) => addPick(String(id).toLowerCase()));
          const strategy = rule.strategy || (rule.weights ? "weighted" : "ordered");
          const weights = field("Weights, one per account (e.g. 70, 30)", "rule-weights", (rule.weights || []).join(", "));
          const loss = field("Max rate loss (percentage points)", "rule-max-rate-loss", rule.max_rate_loss,
            { type: "number", step: "any" });
          const shown = (s) => { weights.hidden = s !== "weighted"; loss.hidden = s !== "adaptive"; };
          const pick = h("select", { class: "rule-strategy", onchange: (e) => shown(e.target.value) },
            STRATEGIES.map((s) => h("option", { value: s, selected: s === strategy }, s)));
          shown(strategy);
          const box = h("div", { class: "rule" });
          box.dataset.ruleId = rule.id || "";
          box.append(
            h("div", { class: "grid" }, field("Rule name", "rule-name", rule.name, { required: true }),
              field("Countries (comma-separated)", "rule-countries", (m.countries || []).join(", ")),
              field("Currencies", "rule-currencies", (m.currencies || []).join(", ")),
              field("Methods", "rule-methods", (m.methods || []).join(", ")),
              field("Min amount (minor units)", "rule-min", m.min_amount, { type: "number", min: 0 }),
              field("Max amount (minor units)", "rule-max", m.max_amount, { type: "number", min: 0 })),
            h("h3", {}, "Accounts, in order of preference"), picks,
            h("div", { class: "inline" },
              h("button", { type: "button", class: "small ghost", onclick: () => addPick("") }, "Add account"),
              h("label", {}, "Strategy", pick), weights, loss,
              h("button", { type: "button", class: "small danger", onclick: () => { box.remove(); onRemove(); } }, "Remove rule")),
            h("p", { class: "error rule-error", role: "alert" }));
          return box;
        }

        /// The rules as the editor shows them; weights only with `weighted`, `max_rate_loss` only with `adaptive`
        /// (the fields the other strategies hide are not sent).
        function readRules(container) {
          return [...container.querySelectorAll(".rule")].map((box) => {
            const v = (cls) => $("." + cls, box).value.trim();
            const num = (cls) => v(cls) === "" ? undefined : Number(v(cls));
            const match = { countries: list(v("rule-countries")).map((s) => s.toUpperCase()),
              currencies: list(v("rule-currencies")).map((s) => s.toUpperCase()), methods: list(v("rule-methods")),
              min_amount: num("rule-min"), max_amount: num("rule-max") };
            const strategy = v("rule-strategy");
            const weights = list(v("rule-weights")).map(Number);
            return { id: box.dataset.ruleId || undefined, name: v("rule-name"), match,
              accounts: [...box.querySelectorAll(".rule-account")].map((s) => s.value).filter(Boolean), strategy,
              weights: strategy === "weighted" && weights.length ? weights : undefined,
              max_rate_loss: strategy === "adaptive" ? num("rule-max-rate-loss") : undefined };
          });
        }

        /// Shows a refused save next to the rules it is about: the routing issues by `rule_index`, a body error by
        /// its `param` (`rules[2].max_rate_loss`); anything else in `where`.
        function showRuleErrors(container, e, where) {
          const boxes = [...container.querySelectorAll(".rule")];
          boxes.forEach((b) => { $(".rule-error", b).textContent = ""; });
          where.textContent = (e.code ? e.code + ": " : "") + e.message;
          const at = (index, text) => {
            const box = boxes[index];
            if (!box) return;
            const out = $(".rule-error", box);
            out.textContent = (out.textContent ? out.textContent + " · " : "") + text;
          };
          for (const issue of e.issues || []) at(issue.rule_index, issue.code + ": " + issue.message);
          const param = /^rules\[(\d+)\]\.?(.*)$/.exec(e.param || "");
          if (param) at(Number(param[1]), (param[2] ? param[2] + ": " : "") + e.message);
        }

        /// Further panels of the routing page, below the editor, statistics and versions, in this order: each is
        /// `(ctx) => node` with the `ctx` that `views.routing` builds: the replay (`ConsoleRoutingReplayScript`) and
        /// the guarded rollout (`ConsoleRoutingRolloutScript`) add theirs.
        const routingPanels = [];

        views.routing = async () => {
          const tenant = state.tenant;
          if (!tenant) return h("div", { class: "card" }, h("p", { class: "empty" }, "Create a tenant first."));
          const base = "/admin/v1/tenants/" + tenant + "/routing";
          const [routing, accs] = await Promise.all([api("GET", base),
            listAll("/admin/v1/tenants/" + tenant + "/provider-accounts")]);
          const accountName = (id) => (accs.find((a) => a.id === String(id).toLowerCase()) || {}).name || shortId(id);
          const ctx = { tenant, base, accounts: accs, accountName, current: routing, saved: [] };
          const rules = h("div", { id: "rules" });
          const note = state.routingNote;
          state.routingNote = null;
          const status = h("p", { class: "muted", id: "routing-status" },
            note || (routing.version ? "Version " + routing.version : "No routing saved yet."));
          const error = h("p", { class: "error", role: "alert", id: "routing-error" });
          const add = (r) => rules.append(ruleEditor(r, accs, () => {}));
          (routing.rules || []).forEach(add);
          const save = h("button", { type: "button", id: "routing-save", "data-perm": "routing.manage", onclick: async () => {
            let saved;
            try {
              error.textContent = "";
              saved = await api("PUT", base, { rules: readRules(rules), version: ctx.current.version });
            } catch (e) {
              showRuleErrors(rules, e, error);
              return;
            }
            ctx.current = saved;
            status.textContent = "Saved: version " + saved.version +
              (saved.warnings && saved.warnings.length ? " (warnings: " + saved.warnings.map((w) => w.message).join("; ") + ")" : "");
            rules.replaceChildren();
            saved.rules.forEach(add);
            ctx.saved.forEach((f) => f(saved));
            toast("Routing saved");
          } }, "Save routing");
          const editor = h("div", { class: "card" }, h("h1", {}, "Routing of " + tenantName(tenant)), status, rules,
            h("div", { class: "inline" }, h("button", { type: "button", class: "ghost", id: "rule-add",
              onclick: () => add({ name: "", accounts: [], strategy: "ordered" }) }, "Add rule"), save), error);
          const [stats, versions] = await Promise.all([routingStats(ctx), routingVersions(ctx)]);
          return h("div", {}, h("div", { class: "columns" }, editor, routingSimulator(ctx)), stats, versions,
            h("div", { id: "routing-panels" }, routingPanels.map((panel) => panel(ctx))));
        };

        /// The simulator card: where would a payment go now.
        function routingSimulator(ctx) {
          const base = ctx.base;
          const accountName = ctx.accountName;
          const sim = { amount: h("input", { id: "sim-amount", type: "number", value: 1000, min: 1 }),
            currency: h("input", { id: "sim-currency", value: "USD", size: 4 }),
            country: h("input", { id: "sim-country", value: "US", size: 3 }),
            method: h("input", { id: "sim-method", value: "card", size: 10 }) };
          const result = h("div", { id: "sim-result" });
          const simError = h("p", { class: "error", role: "alert" });
          const simForm = h("form", { class: "inline", id: "sim-form", onsubmit: async (e) => {
            e.preventDefault();
            const r = await attempt(() => api("POST", base + "/simulate", { amount: Number(sim.amount.value),
              currency: sim.currency.value.toUpperCase(), country: sim.country.value.toUpperCase(), method: sim.method.value }),
              simError);
            if (r) result.replaceChildren(simulation(r, accountName));
          } }, h("label", {}, "Amount", sim.amount), h("label", {}, "Currency", sim.currency),
            h("label", {}, "Country", sim.country), h("label", {}, "Method", sim.method),
            h("button", { type: "submit", id: "sim-run" }, "Simulate"), simError);
          return h("div", { class: "card" }, h("h1", {}, "Simulate"),
            h("p", { class: "muted" }, "Where would a payment go now? No provider is called."), simForm, result);
        }

        function simulation(r, accountName) {
          const label = (a) => (a.name || accountName(a.account_id)) + (a.plugin ? " · " + a.plugin : "");
          const out = h("div", {});
          if (r.error) out.append(h("p", {}, badge(r.error.code, "bad"), " ", r.error.message));
          out.append(h("dl", { class: "kv" },
            h("dt", {}, "Chosen"), h("dd", { id: "sim-chosen" }, r.chosen ? h("strong", {}, label(r.chosen)) : badge("none", "bad")),
            h("dt", {}, "Matched rule"), h("dd", { id: "sim-rule" }, r.matched_rule ? r.matched_rule.name : "—"),
            h("dt", {}, "Fallbacks"), h("dd", {}, r.fallbacks.length ? r.fallbacks.map(label).join(" → ") : "—"),
            h("dt", {}, "Routing version"), h("dd", {}, r.routing_version || "—"),
            h("dt", {}, "Strategy"), h("dd", { id: "sim-strategy" }, r.strategy || "—"),
            h("dt", {}, "Weighted"), h("dd", {}, r.weighted ? "yes" : "no")));
          if (r.skipped.length) out.append(h("h3", {}, "Skipped"), table(["Account", "Why"],
            r.skipped.map((s) => h("tr", {}, h("td", {}, label(s)), h("td", {}, s.reason)))));
          out.append(h("h3", {}, "Rules"), table(["Rule", "Matched", "Why"], r.rules.map((x) => h("tr", {},
            h("td", {}, x.name), h("td", {}, x.matched ? badge("match", "ok") : badge("no", "")), h("td", {}, x.reason || "")))));
          return out;
        }
        """#
}
