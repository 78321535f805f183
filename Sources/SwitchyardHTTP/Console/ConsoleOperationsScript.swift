/// A part of the operator console's script (see ``ConsoleAssets/script``).
enum ConsoleOperationsScript {
    /// Provider health, the review queue, webhook dead letters, payment search, plugins and the audit log.
    static let source = #"""
        const breakerBadge = (s) => badge(s.replace("_", " "), s === "closed" ? "ok" : s === "open" ? "bad" : "warn");
        const refreshButton = () => h("button", { type: "button", class: "ghost small", id: "refresh", onclick: refresh }, "Refresh");

        views.health = async () => {
          const rows = (await api("GET", "/admin/v1/providers/health")).data.map((b) => h("tr", { "data-account": b.account_id },
            h("td", {}, h("strong", {}, b.name), h("br"), h("code", { class: "muted" }, shortId(b.account_id))),
            h("td", {}, tenantName(b.tenant_id)), h("td", {}, b.plugin),
            h("td", {}, b.enabled ? "" : badge("disabled", "bad"), " ", h("span", { class: "breaker" }, breakerBadge(b.state))),
            h("td", {}, b.consecutive_failures), h("td", {}, when(b.opened_at)), h("td", {}, when(b.retry_at)),
            h("td", {}, b.times_opened + " / " + b.times_closed)));
          return h("div", { class: "card" }, h("div", { class: "toolbar" }, h("h1", {}, "Provider health"), refreshButton()),
            h("p", { class: "muted" }, "Circuit breakers per provider account: an open breaker refuses calls until its cool-down ends."),
            table(["Account", "Tenant", "Plugin", "Breaker", "Failures in a row", "Opened", "Retry at", "Opened / closed"],
              rows, "No provider account."));
        };

        /// A Resolve button for a review item: asks for a note, then takes the item out of the list.
        const resolveButton = (kind, id) => can("review.resolve") ? h("button", { type: "button", class: "small ghost",
          "data-resolve": kind + ":" + id, onclick: async () => {
            const note = window.prompt("Resolve " + kind + " " + id + ": what was done? (kept in the audit log)");
            if (note === null) return;
            const r = await attempt(() => api("POST", "/admin/v1/payments/review/" + kind + "/" + encodeURIComponent(id) + "/resolve", { note }));
            if (r) { toast("Resolved " + kind + " " + id); refresh(); }
          } }, "Resolve") : "";

        views.review = async () => {
          const r = await api("GET", "/admin/v1/payments/review");
          const pay = (id) => h("a", { href: "#", onclick: (e) => { e.preventDefault(); searchPayment("id", id); } }, id);
          return h("div", {},
            h("div", { class: "card" }, h("div", { class: "toolbar" }, h("h1", {}, "Payments still unknown"), refreshButton()),
              table(["Payment", "Tenant", "Amount", "Reference", "Unknown since", "Syncs", ""], r.data.map((p) => h("tr", {},
                h("td", {}, pay(p.id)), h("td", {}, tenantName(p.tenant_id)), h("td", {}, money(p.amount, p.currency)),
                h("td", {}, p.reference), h("td", {}, when(p.unknown_since)), h("td", {}, p.syncs),
                h("td", {}, resolveButton("payment", p.id)))), "No payment waits for review.")),
            h("div", { class: "card" }, h("h2", {}, "Rejected notifications"),
              table(["When", "Tenant", "Payment", "Reason", "Message", ""], r.notifications.map((n) => h("tr", {},
                h("td", {}, when(n.at)), h("td", {}, tenantName(n.tenant_id)), h("td", {}, n.payment_id ? pay(n.payment_id) : "—"),
                h("td", {}, badge(n.reason, "warn")), h("td", {}, n.message || ""),
                h("td", {}, resolveButton("notification", String(n.notification_id))))), "None.")),
            h("div", { class: "card" }, h("h2", {}, "Refunds and captures left unresolved"),
              table(["When", "Kind", "Tenant", "Payment", "Amount", "Status", "Reason", ""], r.operations.map((o) => h("tr", {},
                h("td", {}, when(o.at)), h("td", {}, o.kind), h("td", {}, tenantName(o.tenant_id)), h("td", {}, pay(o.payment_id)),
                h("td", {}, o.amount === null || o.amount === undefined ? "—" : o.amount), h("td", {}, badge(o.status, "warn")),
                h("td", {}, o.reason), h("td", {}, resolveButton(o.kind, o.id)))), "None.")));
        };

        views.webhooks = async () => {
          const status = state.webhookStatus || "dead";
          const picker = h("select", { id: "delivery-status", onchange: (e) => { state.webhookStatus = e.target.value; refresh(); } },
            ["dead", "pending", "succeeded", "canceled"].map((s) => h("option", { value: s, selected: s === status }, s)));
          const res = await api("GET", "/admin/v1/webhook-deliveries?status=" + status + "&limit=100");
          const rows = res.data.map((x) => {
            const d = x.delivery;
            const replay = h("button", { type: "button", class: "small", "data-perm": "webhooks.replay", onclick: async () => {
              const r = await attempt(() => api("POST", "/admin/v1/tenants/" + x.tenant_id + "/events/" +
                encodeURIComponent(d.event) + "/replay", { endpoint: d.endpoint }));
              if (r) { toast("Replay queued: " + r.data.map((n) => n.id).join(", ")); refresh(); }
            } }, "Replay");
            return h("tr", {}, h("td", {}, when(d.created_at)), h("td", {}, x.tenant_name), h("td", {}, h("code", {}, d.event)),
              h("td", {}, h("code", {}, d.endpoint)), h("td", {}, badge(d.status, d.status === "succeeded" ? "ok" : d.status === "dead" ? "bad" : "warn")),
              h("td", {}, d.attempt_count), h("td", {}, d.last_status_code ? "HTTP " + d.last_status_code : "", " ", d.last_error || ""),
              h("td", {}, d.status === "dead" ? replay : ""));
          });
          const deliveries = h("div", { class: "card" }, h("div", { class: "toolbar" }, h("h1", {}, "Webhook deliveries"),
            h("label", { class: "check" }, "Status", picker), refreshButton()),
            h("p", { class: "muted" }, "Dead letters gave up after every retry; a replay sends the event again to the same endpoint."),
            table(["Created", "Tenant", "Event", "Endpoint", "Status", "Attempts", "Last failure", ""], rows, "No delivery in this status."));
          return h("div", {}, state.tenant ? await endpointsCard(state.tenant) : "", deliveries);
        };

        /// The selected tenant's webhook endpoints: register, disable, rotate the secret (shown once), send a test event.
        async function endpointsCard(tenant) {
          const base = "/admin/v1/tenants/" + tenant + "/webhook-endpoints";
          const registered = await listAll(base);
          const error = h("p", { class: "error", role: "alert" });
          const fresh = h("div", { id: "endpoint-secret" });
          const showSecret = (e) => fresh.replaceChildren(h("div", { class: "secret-once" },
            h("strong", {}, "Signing secret of " + e.url + ": copy it now, it is not shown again."), h("br"),
            h("code", { id: "endpoint-secret-value" }, e.secret)));
          const url = h("input", { id: "endpoint-url", placeholder: "https://merchant.example/webhooks", size: 40 });
          const types = h("input", { id: "endpoint-types", value: "payment.*", size: 24 });
          const form = h("form", { class: "inline", id: "endpoint-form", "data-perm": "webhooks.manage", onsubmit: async (e) => {
            e.preventDefault();
            const created = await attempt(() => api("POST", base, { url: url.value, event_types: list(types.value) }), error);
            if (created) {
              toast("Endpoint registered");
              const card = await endpointsCard(tenant);
              $("#endpoints-card").replaceWith(card);
              showSecretIn(card, created);
            }
          } }, h("label", {}, "URL", url), h("label", {}, "Events", types), h("button", { type: "submit" }, "Register"), error);
          const act = (label, perm, e, run) => h("button", { type: "button", class: "small ghost", "data-perm": perm,
            "data-endpoint-action": label.toLowerCase().replace(" ", "-"), onclick: run }, label);
          const rows = registered.map((e) => h("tr", { "data-endpoint": e.id }, h("td", {}, e.url), h("td", {}, (e.event_types || []).join(", ")),
            h("td", { class: "endpoint-state" }, e.enabled ? badge("enabled", "ok") : badge("disabled", "bad")),
            h("td", {}, e.livemode ? "live" : "test"),
            h("td", {}, act("Test", "webhooks.replay", e, async () => {
                const d = await attempt(() => api("POST", base + "/" + e.id + "/test"), error);
                if (d) toast("Test event queued: " + d.id);
              }), " ", act("Rotate secret", "webhooks.manage", e, async () => {
                if (!window.confirm("Rotate the signing secret of " + e.url + "? The old one keeps signing for a day.")) return;
                const r = await attempt(() => api("POST", base + "/" + e.id + "/rotate-secret", {}), error);
                if (r) showSecret(r);
              }), " ", !e.enabled ? "" : act("Disable", "webhooks.manage", e, async () => {
                if (!window.confirm("Disable " + e.url + "? Nothing more is delivered to it.")) return;
                if (await attempt(() => api("DELETE", base + "/" + e.id), error)) { toast("Endpoint disabled"); refresh(); }
              }))));
          const card = h("div", { class: "card", id: "endpoints-card" }, h("h2", {}, "Webhook endpoints of " + tenantName(tenant)),
            form, fresh, table(["URL", "Events", "Status", "Mode", ""], rows, "No endpoint registered."));
          return card;
        }
        const showSecretIn = (card, e) => $("#endpoint-secret", card).replaceChildren(h("div", { class: "secret-once" },
          h("strong", {}, "Signing secret of " + e.url + ": copy it now, it is not shown again."), h("br"),
          h("code", { id: "endpoint-secret-value" }, e.secret)));

        function searchPayment(kind, value) {
          state.search = { kind, value };
          show("payments");
        }

        views.payments = async () => {
          const s = state.search || { kind: "reference", value: "" };
          const kind = h("select", { id: "search-kind" }, h("option", { value: "reference", selected: s.kind === "reference" }, "Reference"),
            h("option", { value: "id", selected: s.kind === "id" }, "Payment id"));
          const value = h("input", { id: "search-value", value: s.value, size: 40, required: true });
          const error = h("p", { class: "error", role: "alert" });
          const results = h("div", { id: "search-results" });
          const form = h("form", { class: "inline", id: "search-form", onsubmit: async (e) => {
            e.preventDefault();
            state.search = { kind: kind.value, value: value.value.trim() };
            const r = await attempt(() => api("GET", "/admin/v1/payments?" + kind.value + "=" + encodeURIComponent(state.search.value)), error);
            if (r) results.replaceChildren(...(r.data.length ? r.data.map(paymentCard) : [h("p", { class: "empty" }, "No payment found.")]));
          } }, h("label", {}, "Search by", kind), h("label", {}, "Value", value), h("button", { type: "submit" }, "Find"), error);
          const card = h("div", {}, h("div", { class: "card" }, h("h1", {}, "Payments"), form), results);
          if (s.value) setTimeout(() => form.requestSubmit(), 0);
          return card;
        }

        const paymentBadge = (s) => badge(s, ["succeeded", "captured", "authorized"].includes(s) ? "ok" :
          ["failed", "canceled", "declined"].includes(s) ? "bad" : s === "unknown" ? "warn" : "info");

        function paymentCard(hit) {
          const p = hit.payment, r = p.routing;
          const out = h("div", { class: "card payment", "data-payment": p.id },
            h("div", { class: "toolbar" }, h("h2", {}, money(p.amount, p.currency)), paymentBadge(p.status)),
            h("dl", { class: "kv" }, h("dt", {}, "Payment"), h("dd", {}, h("code", {}, p.id)),
              h("dt", {}, "Tenant"), h("dd", {}, hit.tenant_name || hit.tenant_id),
              h("dt", {}, "Reference"), h("dd", {}, p.reference),
              h("dt", {}, "Method"), h("dd", {}, p.method + " · " + p.country),
              h("dt", {}, "Created"), h("dd", {}, when(p.created_at)),
              p.failure ? [h("dt", {}, "Failure"), h("dd", {}, badge(p.failure.code, "bad"), " ", p.failure.message)] : ""));
          if (r) out.append(h("h3", {}, "Routing decision"), h("dl", { class: "kv routing" },
            h("dt", {}, "Rule"), h("dd", { class: "routing-rule" }, r.ruleName || "— (no rule matched)"),
            h("dt", {}, "Candidates"), h("dd", {}, (r.candidates || []).map((c) => shortId(String(c).toLowerCase())).join(" → ") || "—"),
            h("dt", {}, "Version"), h("dd", {}, r.version || "—"),
            (r.skipped || []).length ? [h("dt", {}, "Skipped"), h("dd", {}, r.skipped.map((x) => shortId(String(x.accountId).toLowerCase()) + ": " + x.reason).join("; "))] : ""));
          out.append(h("h3", {}, "Attempts"), table(["#", "Plugin", "Account", "Outcome", "Provider status", "Code", "Started"],
            p.attempts.map((a) => h("tr", { class: "attempt" }, h("td", {}, a.sequence), h("td", {}, a.plugin),
              h("td", {}, h("code", {}, shortId(a.provider_account))), h("td", {}, a.outcome ? badge(a.outcome, a.outcome === "success" ? "ok" : "warn") : "—"),
              h("td", {}, a.provider_status || ""), h("td", {}, a.code ? a.code + (a.message ? ": " + a.message : "") : ""),
              h("td", {}, when(a.started_at)))), "No attempt."));
          if (p.refunds.length) out.append(h("h3", {}, "Refunds"), table(["Refund", "Amount", "Status"],
            p.refunds.map((x) => h("tr", {}, h("td", {}, h("code", {}, x.id)), h("td", {}, money(x.amount, p.currency)), h("td", {}, x.status)))));
          if (can("payments.act")) out.append(paymentActions(hit));
          return out;
        }

        /// Capture, refund (in full or in part), cancel and sync, each after a confirmation that names the
        /// amount and currency, sent once under a fresh Idempotency-Key (a retry of the same click refunds
        /// nothing more). Offered to roles holding `payments.act`.
        function paymentActions(hit) {
          const p = hit.payment;
          const base = "/admin/v1/tenants/" + hit.tenant_id + "/payments/" + encodeURIComponent(p.id);
          const error = h("p", { class: "error", role: "alert" });
          const act = (name, path, body, question, done) => h("button", { type: "button", class: "small",
            "data-action": name, onclick: async () => {
              const request = typeof body === "function" ? body() : body;
              if (request === null) return;
              if (!window.confirm(question(request))) return;
              const key = { "Idempotency-Key": "console-" + name + "-" + p.id + "-" + Date.now() };
              const r = await attempt(() => api("POST", base + path, request, key), error);
              if (r) { toast(done(r)); show("payments"); }
            } }, name[0].toUpperCase() + name.slice(1));
          const refundable = p.amount_captured - p.amount_refunded - (p.amount_disputed || 0);
          const amount = h("input", { type: "number", min: 1, max: refundable, step: 1, size: 8, "data-field": "refund-amount",
            placeholder: "minor units", value: refundable > 0 ? refundable : "" });
          const buttons = [];
          if (p.status === "authorized") buttons.push(act("capture", "/capture", {},
            () => "Capture " + money(p.amount - p.amount_captured, p.currency) + " of payment " + p.id + "?",
            (r) => "Payment " + r.id + ": " + r.status));
          if (p.status === "succeeded" && refundable > 0) buttons.push(amount, act("refund", "/refunds", () => {
              const value = Number(amount.value);
              if (!Number.isInteger(value) || value < 1) { error.textContent = "Enter the amount in minor units."; return null; }
              return { amount: value };
            }, (b) => "Refund " + money(b.amount, p.currency) + " of payment " + p.id + "?",
            (r) => "Refund " + r.id + ": " + money(r.amount, r.currency) + " " + r.status));
          if (["requires_action", "authorized"].includes(p.status)) buttons.push(act("cancel", "/cancel", {},
            () => "Cancel payment " + p.id + " of " + money(p.amount, p.currency) + "?", (r) => "Payment " + r.id + ": " + r.status));
          buttons.push(act("sync", "/sync", undefined, () => "Ask the provider about payment " + p.id + " now?",
            (r) => "Payment " + r.id + ": " + r.status));
          return h("div", { class: "inline payment-actions", "data-perm": "payments.act" }, ...buttons, error);
        }

        /// A button that posts to `path` after a confirmation, then shows `done(result)` and refreshes.
        const reloadButton = (id, label, perm, path, question, done) => h("button", { type: "button", class: "small", id,
          "data-perm": perm, onclick: async () => {
            if (!confirm(question)) return;
            const r = await attempt(() => api("POST", path));
            if (r) { toast(done(r)); refresh(); }
          } }, label);

        views.plugins = async () => {
          const s = await api("GET", "/admin/v1/plugins");
          return h("div", {},
            h("div", { class: "card" }, h("div", { class: "toolbar" }, h("h1", {}, "Plugins loaded"),
              reloadButton("plugin-reload", "Reload plugins", "plugins.manage", "/admin/v1/plugins/reload",
                "Reload every plugin from the plugin directory?", (r) => "Plugins reloaded: " + (r.loaded || []).length + " loaded"),
              reloadButton("policy-reload", "Reload policy", "policy.manage", "/admin/v1/policy/reload",
                "Reload the platform policy file?", () => "Policy reloaded"),
              refreshButton()),
              table(["Id", "Provider", "Version", "Methods", "SHA-256", "Loaded"], (s.loaded || []).map((p) => h("tr", {},
                h("td", {}, h("strong", {}, p.id)), h("td", {}, p.provider), h("td", {}, p.version), h("td", {}, (p.methods || []).join(", ")),
                h("td", {}, h("code", { title: p.sha256 }, String(p.sha256).slice(0, 12) + "…")), h("td", {}, when(p.loadedAt || p.loaded_at)))),
                "No plugin loaded.")),
            h("div", { class: "card" }, h("h2", {}, "Refused files"),
              table(["File", "Code", "Reason", "When"], (s.refused || []).map((p) => h("tr", {}, h("td", {}, h("code", {}, p.file)),
                h("td", {}, badge(p.code, "bad")), h("td", {}, p.reason), h("td", {}, when(p.at)))), "No file refused.")),
            (s.quarantined || []).length ? h("div", { class: "card" }, h("h2", {}, "Quarantined"),
              table(["Id", "File", "Reason", "When"], s.quarantined.map((p) => h("tr", {}, h("td", {}, p.id), h("td", {}, h("code", {}, p.file)),
                h("td", {}, p.reason), h("td", {}, when(p.at)))))) : "");
        };

        views.audit = async () => {
          const entries = (await api("GET", "/admin/v1/audit?limit=100")).data;
          return h("div", { class: "card" }, h("div", { class: "toolbar" }, h("h1", {}, "Audit log"), refreshButton()),
            table(["When", "Tenant", "Actor", "Action", "Target", "Details"], entries.map((e) => h("tr", {},
              h("td", {}, when(e.at)), h("td", {}, e.tenantId ? tenantName(String(e.tenantId).toLowerCase()) : "—"),
              h("td", {}, e.actor), h("td", {}, badge(e.action, "info")), h("td", {}, h("code", {}, e.target)),
              h("td", {}, Object.entries(e.details || {}).map(([k, v]) => k + "=" + v).join(", ")))), "No entry."));
        };
        """#
}
