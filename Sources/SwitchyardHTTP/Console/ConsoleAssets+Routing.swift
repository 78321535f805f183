extension ConsoleAssets {
    /// The routing editor with the simulator beside it.
    static let scriptRouting = #"""
        function ruleEditor(rule, accounts, onRemove) {
          const m = rule.match || {};
          const field = (label, cls, value, extra) => h("label", {}, label,
            h("input", Object.assign({ class: cls, value: value === undefined || value === null ? "" : value }, extra || {})));
          const picks = h("div", { class: "rule-accounts" });
          const addPick = (id) => picks.append(h("div", { class: "inline" }, h("select", { class: "rule-account" },
            h("option", { value: "" }, "— account —"),
            accounts.map((a) => h("option", { value: a.id, selected: a.id === id }, a.name + " · " + a.plugin))),
            h("button", { type: "button", class: "small ghost", onclick: (e) => e.target.parentNode.remove() }, "✕")));
          (rule.accounts && rule.accounts.length ? rule.accounts : [""]).forEach((id) => addPick(String(id).toLowerCase()));
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
              field("Weights (optional, e.g. 70, 30)", "rule-weights", (rule.weights || []).join(", ")),
              h("button", { type: "button", class: "small danger", onclick: () => { box.remove(); onRemove(); } }, "Remove rule")));
          return box;
        }

        function readRules(container) {
          return [...container.querySelectorAll(".rule")].map((box) => {
            const v = (cls) => $("." + cls, box).value.trim();
            const num = (cls) => v(cls) === "" ? undefined : Number(v(cls));
            const match = { countries: list(v("rule-countries")).map((s) => s.toUpperCase()),
              currencies: list(v("rule-currencies")).map((s) => s.toUpperCase()), methods: list(v("rule-methods")),
              min_amount: num("rule-min"), max_amount: num("rule-max") };
            const weights = list(v("rule-weights")).map(Number);
            return { id: box.dataset.ruleId || undefined, name: v("rule-name"), match,
              accounts: [...box.querySelectorAll(".rule-account")].map((s) => s.value).filter(Boolean),
              weights: weights.length ? weights : undefined };
          });
        }

        views.routing = async () => {
          const tenant = state.tenant;
          if (!tenant) return h("div", { class: "card" }, h("p", { class: "empty" }, "Create a tenant first."));
          const base = "/admin/v1/tenants/" + tenant + "/routing";
          const [routing, accs] = await Promise.all([api("GET", base),
            listAll("/admin/v1/tenants/" + tenant + "/provider-accounts")]);
          const accountName = (id) => (accs.find((a) => a.id === id) || {}).name || shortId(id);
          const rules = h("div", { id: "rules" });
          const status = h("p", { class: "muted", id: "routing-status" },
            routing.version ? "Version " + routing.version : "No routing saved yet.");
          const error = h("p", { class: "error", role: "alert", id: "routing-error" });
          const add = (r) => rules.append(ruleEditor(r, accs, () => {}));
          (routing.rules || []).forEach(add);
          let version = routing.version;
          const save = h("button", { type: "button", id: "routing-save", onclick: async () => {
            const saved = await attempt(() => api("PUT", base, { rules: readRules(rules), version }), error);
            if (!saved) return;
            version = saved.version;
            status.textContent = "Saved: version " + saved.version +
              (saved.warnings && saved.warnings.length ? " (warnings: " + saved.warnings.map((w) => w.message).join("; ") + ")" : "");
            rules.replaceChildren();
            saved.rules.forEach(add);
            toast("Routing saved");
          } }, "Save routing");
          const editor = h("div", { class: "card" }, h("h1", {}, "Routing of " + tenantName(tenant)), status, rules,
            h("div", { class: "inline" }, h("button", { type: "button", class: "ghost", id: "rule-add",
              onclick: () => add({ name: "", accounts: [] }) }, "Add rule"), save), error);

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
          const simulator = h("div", { class: "card" }, h("h1", {}, "Simulate"),
            h("p", { class: "muted" }, "Where would a payment go now? No provider is called."), simForm, result);
          return h("div", { class: "columns" }, editor, simulator);
        };

        function simulation(r, accountName) {
          const label = (a) => (a.name || accountName(a.account_id)) + (a.plugin ? " · " + a.plugin : "");
          const out = h("div", {});
          if (r.error) out.append(h("p", {}, badge(r.error.code, "bad"), " ", r.error.message));
          out.append(h("dl", { class: "kv" },
            h("dt", {}, "Chosen"), h("dd", { id: "sim-chosen" }, r.chosen ? h("strong", {}, label(r.chosen)) : badge("none", "bad")),
            h("dt", {}, "Matched rule"), h("dd", { id: "sim-rule" }, r.matched_rule ? r.matched_rule.name : "—"),
            h("dt", {}, "Fallbacks"), h("dd", {}, r.fallbacks.length ? r.fallbacks.map(label).join(" → ") : "—"),
            h("dt", {}, "Routing version"), h("dd", {}, r.routing_version || "—"),
            h("dt", {}, "Weighted"), h("dd", {}, r.weighted ? "yes" : "no")));
          if (r.skipped.length) out.append(h("h3", {}, "Skipped"), table(["Account", "Why"],
            r.skipped.map((s) => h("tr", {}, h("td", {}, label(s)), h("td", {}, s.reason)))));
          out.append(h("h3", {}, "Rules"), table(["Rule", "Matched", "Why"], r.rules.map((x) => h("tr", {},
            h("td", {}, x.name), h("td", {}, x.matched ? badge("match", "ok") : badge("no", "")), h("td", {}, x.reason || "")))));
          return out;
        }
        """#
}
