/// A part of the operator console's script (see ``ConsoleAssets/script``).
enum ConsoleRoutingReplayScript {
    /// The routing page's replay card: the editor's current (unsaved) rules replayed over logged payments (the
    /// newest N, or a time range) next to the live routing, overall and per segment, with the first page of the
    /// payments the draft would send to another account.
    static let source = #"""
        /// An estimated rate as the replay answers it: the estimate with its interval, or "not enough evidence".
        function replayRate(rate) {
          if (!rate || rate.estimate === null || rate.estimate === undefined) {
            return h("span", { class: "replay-rate muted" }, rate ? rate.evidence : "—");
          }
          return h("span", { class: "replay-rate" }, percent(rate.estimate), " ",
            h("span", { class: "muted" }, "(" + percent(rate.lower) + " – " + percent(rate.upper) + ")"),
            intervalBar(rate.estimate, rate.lower, rate.upper));
        }

        function replayFees(fees) {
          if (!fees) return h("span", { class: "muted" }, "unknown (an account has no fee model)");
          const entries = Object.entries(fees);
          return entries.length ? entries.map(([cur, minor]) => money(minor, cur)).join(", ") : "—";
        }

        function replayShares(shares, accountName) {
          return shares.length ? shares.map((s) => accountName(s.account_id) + " " + percent(s.share)).join(", ") : "—";
        }

        /// Draft and live side by side: one row per figure.
        function replayComparison(r, accountName) {
          const row = (label, cls, show) => h("tr", { class: "replay-row " + cls }, h("th", {}, label),
            h("td", { "data-policy": "draft" }, show(r.draft)), h("td", { "data-policy": "live" }, show(r.live)));
          return h("table", { id: "replay-comparison" },
            h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, "Draft"), h("th", {}, "Live"))),
            h("tbody", {},
              row("Authorisation rate", "replay-overall", (p) => replayRate(p.authorization_rate)),
              row("Estimated by", "replay-method", (p) => p.authorization_rate.method + " · n " + p.authorization_rate.n +
                " · effective n " + p.authorization_rate.n_eff),
              row("Expected fees", "replay-fees", (p) => replayFees(p.expected_fees)),
              row("Account shares", "replay-shares", (p) => replayShares(p.shares, accountName)),
              row("Unrouted", "replay-unrouted", (p) => String(p.unrouted))));
        }

        function replayReport(r, accountName) {
          const segments = table(["Segment", "Observed", "Draft", "Live"], r.segments.map((s) =>
            h("tr", { class: "replay-segment" }, h("td", {}, s.country + " · " + s.currency + " · " + s.method),
              h("td", {}, replayRate(s.observed)), h("td", { "data-policy": "draft" }, replayRate(s.draft.authorization_rate)),
              h("td", { "data-policy": "live" }, replayRate(s.live.authorization_rate)))), "No segments.");
          const changes = table(["Payment", "Segment", "Decided", "From", "To"], r.changes.data.map((c) =>
            h("tr", { class: "replay-change" }, h("td", { class: "mono" }, c.payment_id),
              h("td", {}, c.country + " · " + c.currency + " · " + c.method), h("td", {}, when(c.decided_at)),
              h("td", {}, accountName(c.from_account_id)),
              h("td", {}, c.to_account_id ? accountName(c.to_account_id) : badge("unrouted", "bad")))),
            "The draft sends no payment of the window to another account.");
          return h("div", { id: "replay-result" },
            h("p", { class: "muted" }, r.payments + " logged payments replayed (the first attempt of each); observed " +
              "authorisation rate ", replayRate(r.observed)),
            replayComparison(r, accountName), h("h3", {}, "Per segment"), segments,
            h("h3", {}, "Payments that would change account (" + r.changes.total + ")"), changes);
        }

        /// The replay card; reads the editor's rules when run, so unsaved edits are what is replayed.
        function routingReplay(ctx) {
          const kind = h("select", { id: "replay-window" }, h("option", { value: "last" }, "the last N payments"),
            h("option", { value: "range" }, "a time range"));
          const last = h("input", { id: "replay-last", type: "number", min: 1, value: 1000 });
          const from = h("input", { id: "replay-from", type: "datetime-local" });
          const to = h("input", { id: "replay-to", type: "datetime-local" });
          const lastField = h("label", {}, "Payments", last);
          const range = [h("label", {}, "From", from), h("label", {}, "To", to)];
          const shown = () => { lastField.hidden = kind.value !== "last"; range.forEach((r) => { r.hidden = kind.value !== "range"; }); };
          kind.addEventListener("change", shown);
          shown();
          const result = h("div", { id: "replay-output" });
          const error = h("p", { class: "error", role: "alert", id: "replay-error" });
          const iso = (input) => input.value ? new Date(input.value).toISOString() : undefined;
          const run = async (e) => {
            e.preventDefault();
            const span = kind.value === "last" ? { last: Number(last.value) } : { from: iso(from), to: iso(to) };
            const r = await attempt(() => api("POST", ctx.base + "/replay", { rules: readRules($("#rules")), window: span }), error);
            if (r) result.replaceChildren(replayReport(r, ctx.accountName));
          };
          return h("div", { class: "card", id: "replay-card" }, h("h1", {}, "Replay the draft"),
            h("p", { class: "muted" }, "The rules in the editor above (saved or not) and the live routing, replayed over " +
              "logged payments: no provider is called and nothing is saved."),
            h("form", { class: "inline", id: "replay-form", onsubmit: run }, h("label", {}, "Window", kind), lastField,
              range, h("button", { type: "submit", id: "replay-run" }, "Replay")), error, result);
        }
        routingPanels.push(routingReplay);
        """#
}
