/// A part of the operator console's script (see ``ConsoleAssets/script``).
enum ConsoleDisputesScript {
    /// The selected tenant's disputes by deadline, with the answers a support operator may give.
    static let source = #"""
        const OPEN_DISPUTES = ["needs_response", "warning_needs_response", "under_review", "warning_under_review"];
        const WAITING_DISPUTES = ["needs_response", "warning_needs_response"];

        /// The deadline cell: the date, and how close it is.
        function dueCell(d) {
          const due = d.evidence_details && d.evidence_details.due_by;
          if (!due) return h("td", {}, "—");
          const hours = (new Date(due) - Date.now()) / 3600000;
          const flag = d.evidence_details.past_due ? badge("past due", "bad")
            : hours <= 24 ? badge("within 24 h", "bad") : hours <= 72 ? badge("within 72 h", "warn") : "";
          return h("td", {}, when(due), " ", flag);
        }

        /// Reads `file` as Base64 (without the data URL's prefix).
        const base64Of = (file) => new Promise((resolve, reject) => {
          const reader = new FileReader();
          reader.onload = () => resolve(String(reader.result).split(",")[1] || "");
          reader.onerror = () => reject(reader.error);
          reader.readAsDataURL(file);
        });

        function disputeActions(tenant, d, error) {
          if (!WAITING_DISPUTES.includes(d.status)) return "";
          const base = "/admin/v1/tenants/" + tenant + "/disputes/" + encodeURIComponent(d.id);
          const accept = h("button", { type: "button", class: "small danger", "data-perm": "disputes.act",
            "data-action": "accept", onclick: async () => {
              if (!window.confirm("Accept dispute " + d.id + " of " + money(d.amount, d.currency) +
                "? The merchant does not defend it and the funds stay with the cardholder.")) return;
              const key = { "Idempotency-Key": "console-accept-" + d.id + "-" + Date.now() };
              const done = await attempt(() => api("POST", base + "/accept", {}, key), error);
              if (done) { toast("Dispute " + d.id + ": " + (done.response ? done.response.message : done.status)); refresh(); }
            } }, "Accept");
          const file = h("input", { type: "file", accept: "application/pdf,image/jpeg,image/png", "data-field": "evidence-file" });
          const submit = h("input", { type: "checkbox", "data-field": "evidence-submit" });
          const attach = h("button", { type: "button", class: "small", "data-action": "evidence", onclick: async () => {
            const chosen = file.files && file.files[0];
            if (!chosen) { error.textContent = "Choose a PDF, JPEG or PNG first."; return; }
            const data = await attempt(() => base64Of(chosen), error);
            if (data === undefined) return;
            const body = { files: [{ type: chosen.type || "application/octet-stream", name: chosen.name, data }], submit: submit.checked };
            const key = { "Idempotency-Key": "console-evidence-" + d.id + "-" + Date.now() };
            const done = await attempt(() => api("POST", base + "/evidence", body, key), error);
            if (done) { toast("Evidence " + (submit.checked ? "submitted" : "staged") + " for " + d.id); refresh(); }
          } }, "Attach");
          return h("span", { class: "inline", "data-perm": "disputes.act" }, accept, " ", file,
            h("label", { class: "check" }, submit, "submit"), attach);
        }

        views.disputes = async () => {
          const tenant = state.tenant;
          if (!tenant) return h("div", { class: "card" }, h("p", { class: "empty" }, "Create a tenant first."));
          const all = await listAll("/admin/v1/tenants/" + tenant + "/disputes");
          const showClosed = !!state.disputesClosed;
          const shown = all.filter((d) => showClosed || OPEN_DISPUTES.includes(d.status)).sort((a, b) => {
            const da = a.evidence_details && a.evidence_details.due_by, db = b.evidence_details && b.evidence_details.due_by;
            if (!da) return db ? 1 : 0;
            if (!db) return -1;
            return new Date(da) - new Date(db);
          });
          const error = h("p", { class: "error", role: "alert" });
          const toggle = h("input", { type: "checkbox", id: "disputes-closed", checked: showClosed,
            onchange: (e) => { state.disputesClosed = e.target.checked; refresh(); } });
          const rows = shown.map((d) => h("tr", { "data-dispute": d.id }, dueCell(d),
            h("td", {}, h("code", {}, d.id), d.review ? h("br") : "", d.review ? badge(d.review, "warn") : ""),
            h("td", {}, d.payment ? h("a", { href: "#", onclick: (e) => { e.preventDefault(); searchPayment("id", d.payment); } }, d.payment) : "—"),
            h("td", {}, money(d.amount, d.currency)),
            h("td", { class: "status" }, badge(d.status, d.status === "won" ? "ok" : d.status === "lost" ? "bad" : "warn")),
            h("td", {}, d.reason, d.reason_code ? " (" + d.reason_code + ")" : ""), h("td", {}, d.funds),
            h("td", {}, d.response ? d.response.channel + ": " + d.response.message : ""),
            h("td", {}, disputeActions(tenant, d, error))));
          return h("div", { class: "card" }, h("div", { class: "toolbar" }, h("h1", {}, "Disputes"),
            h("label", { class: "check" }, toggle, "Show decided"), refreshButton()),
            h("p", { class: "muted" }, "Open disputes, the soonest deadline first. Where the provider has no API for an answer, it is recorded to give at the provider."),
            error,
            table(["Evidence due", "Dispute", "Payment", "Amount", "Status", "Reason", "Funds", "Answer", ""], rows, "No open dispute."));
        };
        """#
}
