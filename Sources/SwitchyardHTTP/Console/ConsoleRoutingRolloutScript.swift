/// A part of the operator console's script (see ``ConsoleAssets/script``).
enum ConsoleRoutingRolloutScript {
    /// The routing page's guarded rollout card: the running rollout with its settings, per-arm figures, the two
    /// authorisation rate curves and the interval for draft − control against the guardrail, and a Stop button;
    /// without one, a form starting a rollout of the editor's rules; then the last ended rollout's outcome.
    static let source = #"""
        const ROLLOUT_CHART = { width: 560, height: 180, pad: 34, left: 60 };

        /// The chart frame: `x(seconds)` and `y(value)` map into it; `ticks` label the vertical axis.
        function rolloutFrame(id, points, low, high, ticks) {
          const { width, height, pad, left } = ROLLOUT_CHART;
          const end = Math.max(1, ...points.map((p) => p.elapsed_seconds));
          const x = (t) => (left + (t / end) * (width - left - pad)).toFixed(1);
          const y = (v) => (height - pad - ((Math.min(high, Math.max(low, v)) - low) / (high - low)) * (height - 2 * pad)).toFixed(1);
          const out = svg("svg", { id, class: "rollout-chart", width, height, viewBox: "0 0 " + width + " " + height, role: "img" });
          out.append(svg("line", { class: "axis", x1: left, y1: height - pad, x2: width - pad, y2: height - pad }),
            svg("line", { class: "axis", x1: left, y1: pad, x2: left, y2: height - pad }));
          for (const [value, label] of ticks) {
            const text = svg("text", { x: left - 4, y: Number(y(value)) + 4, "text-anchor": "end" });
            text.textContent = label;
            out.append(text);
          }
          const elapsed = svg("text", { x: width - pad, y: height - pad + 16, "text-anchor": "end" });
          elapsed.textContent = duration(end);
          out.append(elapsed);
          return { out, x, y };
        }

        const duration = (s) => s < 120 ? Math.round(s) + " s" : s < 7200 ? Math.round(s / 60) + " min" :
          s < 172800 ? (s / 3600).toFixed(1) + " h" : (s / 86400).toFixed(1) + " d";

        /// A polyline through the points that have a value; its class names the curve.
        function curve(frame, points, value, cls) {
          const at = points.filter((p) => value(p) !== null && value(p) !== undefined)
            .map((p) => frame.x(p.elapsed_seconds) + "," + frame.y(value(p)));
          frame.out.append(svg("polyline", { class: "curve " + cls, points: at.join(" "), fill: "none" }));
          if (at.length) {
            const [cx, cy] = at[at.length - 1].split(",");
            frame.out.append(svg("circle", { class: "curve " + cls, cx, cy, r: 3 }));
          }
        }

        /// Control and draft authorisation rate over time, 0–100 %.
        function rolloutCurves(points) {
          const frame = rolloutFrame("rollout-chart", points, 0, 1, [[0, "0%"], [0.5, "50%"], [1, "100%"]]);
          curve(frame, points, (p) => p.control.rate, "curve-control");
          curve(frame, points, (p) => p.draft.rate, "curve-draft");
          return frame.out;
        }

        /// The interval for draft − control (percentage points) as a band around the difference, with the zero
        /// line and the guardrail the whole band must not fall below.
        function rolloutIntervalChart(points, guardrail) {
          const known = points.filter((p) => p.interval);
          const values = known.flatMap((p) => [p.interval.lower_pp, p.interval.upper_pp]);
          const low = Math.max(-100, Math.min(-guardrail * 2, ...values)), high = Math.min(100, Math.max(guardrail, ...values));
          const frame = rolloutFrame("rollout-interval-chart", points, low, high,
            [[high, high.toFixed(0) + " pp"], [-guardrail, "−" + guardrail + " pp"], [low, low.toFixed(0) + " pp"]]);
          const { width, pad, left } = ROLLOUT_CHART;
          if (known.length) {
            const upper = known.map((p) => frame.x(p.elapsed_seconds) + "," + frame.y(p.interval.upper_pp));
            const lower = known.map((p) => frame.x(p.elapsed_seconds) + "," + frame.y(p.interval.lower_pp)).reverse();
            frame.out.append(svg("polygon", { class: "interval-band", points: upper.concat(lower).join(" ") }));
          }
          frame.out.append(svg("line", { class: "zero", x1: left, y1: frame.y(0), x2: width - pad, y2: frame.y(0) }),
            svg("line", { class: "guardrail", x1: left, y1: frame.y(-guardrail), x2: width - pad, y2: frame.y(-guardrail) }));
          curve(frame, known, (p) => p.interval.difference_pp, "curve-difference");
          return frame.out;
        }

        /// One rollout's figures: its settings, each arm's answers and the interval.
        function rolloutFigures(r, prefix) {
          const arm = (name, a) => h("tr", { class: "rollout-arm", "data-arm": name }, h("td", {}, name),
            h("td", { class: "arm-samples" }, String(a.samples)), h("td", { class: "arm-approved" }, String(a.approved)),
            h("td", { class: "arm-rate" }, percent(a.rate)));
          const interval = r.interval ? r.interval.difference_pp + " pp (" + r.interval.lower_pp + " to " +
            r.interval.upper_pp + " pp)" : "not enough answers yet";
          const kinds = { running: "info", promoted: "ok", rolled_back: "bad", stopped: "warn" };
          return h("div", {}, h("dl", { class: "kv" },
            h("dt", {}, "Status"), h("dd", {}, h("span", { id: prefix + "-status" }, badge(r.status, kinds[r.status])),
              r.reason ? " " + r.reason.replace(/_/g, " ") : ""),
            h("dt", {}, "Draft version"), h("dd", {}, String(r.draft_version)),
            h("dt", {}, "Share"), h("dd", {}, r.share_percent + " % of payments through the draft"),
            h("dt", {}, "Guardrail"), h("dd", {}, r.guardrail_pp + " pp (alpha " + r.alpha + ")"),
            h("dt", {}, "Min samples"), h("dd", {}, r.min_samples + " per arm"),
            h("dt", {}, "Max duration"), h("dd", {}, duration(r.max_duration_seconds)),
            h("dt", {}, "Started"), h("dd", {}, when(r.started_at) + " · " + duration(r.elapsed_seconds) + " elapsed"),
            h("dt", {}, "Draft − control"), h("dd", { id: prefix + "-interval" }, interval)),
            table(["Arm", "Answers", "Approved", "Rate"], [arm("control", r.control), arm("draft", r.draft)]));
        }

        /// A form starting a rollout of the editor's rules next to the live routing.
        function rolloutStart(ctx, reload) {
          const num = (id, value, extra) => h("input", Object.assign({ id, type: "number", value, step: "any" }, extra || {}));
          const share = num("rollout-share", 10, { min: 0.1, max: 50 });
          const guardrail = num("rollout-guardrail", 3, { min: 0.1 });
          const minSamples = num("rollout-min-samples", 5000, { min: 1, step: 1 });
          const hours = num("rollout-max-hours", 168, { min: 0.1 });
          const error = h("p", { class: "error", role: "alert", id: "rollout-start-error" });
          const start = async (e) => {
            e.preventDefault();
            const r = await attempt(() => api("PUT", ctx.base, { rules: readRules($("#rules")), version: ctx.current.version,
              rollout: { share: share.value + "%", guardrail_pp: Number(guardrail.value), min_samples: Number(minSamples.value),
                max_duration_seconds: Math.round(Number(hours.value) * 3600) } }), error);
            if (!r) return;
            toast("Rollout started");
            await reload();
          };
          return h("form", { id: "rollout-form", "data-perm": "routing.manage", onsubmit: start },
            h("p", { class: "muted" }, "Try the editor's rules on a share of the traffic: the draft is rolled back as soon " +
              "as it is shown worse than the guardrail, and promoted once it is shown within it or at the longest duration."),
            h("div", { class: "inline" }, h("label", {}, "Share (%)", share), h("label", {}, "Guardrail (pp)", guardrail),
              h("label", {}, "Min samples per arm", minSamples), h("label", {}, "Max duration (h)", hours),
              h("button", { type: "submit", id: "rollout-start" }, "Start rollout of the editor's rules")), error);
        }

        /// The rollout card; drawn again by Refresh, Stop and Start.
        function routingRollout(ctx) {
          const card = h("div", { class: "card", id: "rollout-card" });
          const error = h("p", { class: "error", role: "alert", id: "rollout-error" });
          const read = (which) => api("GET", ctx.base + "/rollout/series?rollout=" + which)
            .catch((e) => { if (e.status === 404) return null; throw e; });
          const load = async () => {
            const found = await attempt(() => Promise.all([read("running"), read("last_ended")]), error);
            if (!found) return;
            const [running, ended] = found;
            const body = [];
            if (running) {
              const r = running.rollout;
              body.push(h("div", { id: "rollout-running", "data-rollout": r.id }, rolloutFigures(r, "rollout"),
                h("h3", {}, "Authorisation rate over time"),
                h("p", { class: "legend" }, h("span", { class: "key key-control" }, "control"), " ",
                  h("span", { class: "key key-draft" }, "draft"), " · buckets of " + duration(running.bucket_seconds)),
                rolloutCurves(running.points), h("h3", {}, "Draft − control, with its interval and the guardrail"),
                rolloutIntervalChart(running.points, r.guardrail_pp),
                h("div", { class: "inline" }, h("button", { type: "button", class: "danger", id: "rollout-stop", "data-perm": "routing.manage", onclick: async () => {
                  if (await attempt(() => api("POST", ctx.base + "/rollout/stop"), error)) {
                    toast("Rollout stopped");
                    await load();
                  }
                } }, "Stop rollout (live routing unchanged)"))));
            } else {
              body.push(h("p", { class: "empty", id: "rollout-none" }, "No rollout is running."), rolloutStart(ctx, load));
            }
            if (ended) {
              body.push(h("div", { id: "rollout-last", "data-rollout": ended.rollout.id },
                h("h3", {}, "Last ended rollout · " + when(ended.ended_at)), rolloutFigures(ended.rollout, "rollout-last")));
            }
            card.replaceChildren(h("div", { class: "toolbar" }, h("h1", {}, "Guarded rollout"), h("span", { class: "spacer" }),
              h("button", { type: "button", class: "small ghost", id: "rollout-refresh", onclick: load }, "Refresh")),
              ...body, error);
          };
          card.append(h("div", { class: "toolbar" }, h("h1", {}, "Guarded rollout")), h("p", { class: "muted" }, "Loading…"), error);
          load();
          return card;
        }
        routingPanels.push(routingRollout);
        """#
}
