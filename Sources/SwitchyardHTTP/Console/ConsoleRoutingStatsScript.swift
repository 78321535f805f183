/// A part of the operator console's script (see ``ConsoleAssets/script``).
enum ConsoleRoutingStatsScript {
    /// The routing page's statistics card: the authorisation rate of every account per method × currency (all
    /// countries, then per country), with its confidence bounds drawn as an interval.
    static let source = #"""
        const percent = (x) => x === null || x === undefined ? "—" : (x * 100).toFixed(1) + "%";

        /// An interval drawing: the bounds as a bar on a 0–100 % track, the observed rate as a tick.
        function intervalBar(rate, lower, upper) {
          const width = 160, height = 14, at = (x) => (Math.min(1, Math.max(0, x)) * width).toFixed(1);
          const out = svg("svg", { class: "interval", width, height, viewBox: "0 0 " + width + " " + height,
            role: "img", "aria-label": percent(lower) + " to " + percent(upper) });
          out.append(svg("rect", { class: "track", x: 0, y: 4, width, height: 6, rx: 3 }));
          if (rate === null || rate === undefined) return out;
          out.append(svg("rect", { class: "bounds", x: at(lower), y: 3, width: Math.max(1, at(upper) - at(lower)), height: 8,
            rx: 2 }), svg("rect", { class: "rate", x: Math.max(0, at(rate) - 1), y: 0, width: 2, height }));
          return out;
        }

        async function routingStats(ctx) {
          const body = h("div", { id: "stats-table" });
          const error = h("p", { class: "error", role: "alert" });
          const windowNote = h("p", { class: "muted", id: "stats-window" });
          const load = async () => {
            const stats = await attempt(() => api("GET", ctx.base + "/stats"), error);
            if (!stats) return;
            windowNote.textContent = "The last " + stats.window.attempts + " attempts per account and segment, at most " +
              Math.round(stats.window.seconds / 3600) + " h old. Bounds are the confidence interval adaptive rules rank by.";
            body.replaceChildren(table(["Account", "Method", "Currency", "Country", "Samples", "Rate", "Bounds", ""],
              stats.data.map((s) => h("tr", { class: "stat-row", "data-account": s.account_id },
                h("td", {}, s.account_name || shortId(s.account_id)), h("td", {}, s.method), h("td", {}, s.currency),
                h("td", { class: "stat-country" }, s.country || "all"),
                h("td", { class: "stat-samples" }, s.samples + " (" + s.approved + " ✓ / " + s.declined + " ✗)"),
                h("td", { class: "stat-rate" }, percent(s.rate)),
                h("td", { class: "stat-bounds" }, percent(s.lower_bound) + " – " + percent(s.upper_bound)),
                h("td", {}, intervalBar(s.rate, s.lower_bound, s.upper_bound)))),
              "No authorisation attempts recorded yet."));
          };
          await load();
          return h("div", { class: "card", id: "stats-card" }, h("div", { class: "toolbar" }, h("h1", {}, "Authorisation rates"),
            h("span", { class: "spacer" }), h("button", { type: "button", class: "small ghost", id: "stats-refresh",
              onclick: load }, "Refresh")), windowNote, body, error);
        }
        """#
}
