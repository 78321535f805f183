/// A part of the operator console's script (see ``ConsoleAssets/script``).
enum ConsolePolicyScript {
    /// The selected tenant's own limits: a form of `PUT /admin/v1/tenants/{tenant}/policy`, whose 422 is shown
    /// next to the field its `param` names.
    static let source = #"""
        const POLICY_FIELDS = [
          ["attempt_limit", "Attempt limit", "int"], ["time_budget_ms", "Time budget (ms)", "int"],
          ["retryable_declines", "Fail over on retryable declines", "bool"],
          ["breaker_failure_threshold", "Breaker failure threshold", "int"], ["breaker_cool_down_ms", "Breaker cool-down (ms)", "int"],
          ["review_after_ms", "Review after (ms)", "int"], ["requests_per_second", "Requests per second", "number"],
          ["burst", "Burst", "int"], ["max_concurrent_requests", "Concurrent requests", "int"],
        ];

        async function policyCard(tenant) {
          const current = (await api("GET", "/admin/v1/tenants/" + tenant + "/policy")).tenant || {};
          const error = h("p", { class: "error", role: "alert", id: "policy-error" });
          const inputs = {}, errors = {};
          const rows = POLICY_FIELDS.map(([key, label, kind]) => {
            const v = current[key];
            inputs[key] = kind === "bool"
              ? h("select", { name: key, id: "policy-" + key }, h("option", { value: "", selected: v === undefined || v === null }, "platform's"),
                  h("option", { value: "true", selected: v === true }, "yes"), h("option", { value: "false", selected: v === false }, "no"))
              : h("input", { name: key, id: "policy-" + key, type: "number", step: kind === "int" ? "1" : "any",
                  value: v === undefined || v === null ? "" : v, placeholder: "platform's" });
            errors[key] = h("span", { class: "error field-error", "data-field": key });
            return h("label", {}, label, inputs[key], errors[key]);
          });
          const read = () => {
            const body = {};
            for (const [key, , kind] of POLICY_FIELDS) {
              const raw = inputs[key].value.trim();
              if (raw === "") continue;
              body[key] = kind === "bool" ? raw === "true" : Number(raw);
            }
            if (current.adaptive_routing) body.adaptive_routing = current.adaptive_routing;
            return body;
          };
          const form = h("form", { id: "policy-form", "data-perm": "policy.manage", onsubmit: async (e) => {
            e.preventDefault();
            for (const x of Object.values(errors)) x.textContent = "";
            error.textContent = "";
            try {
              await api("PUT", "/admin/v1/tenants/" + tenant + "/policy", read());
              toast("Policy saved");
            } catch (err) {
              const text = (err.code ? err.code + ": " : "") + err.message;
              if (err.param && errors[err.param]) errors[err.param].textContent = text; else error.textContent = text;
            }
          } }, h("div", { class: "rule" }, h("div", { class: "grid" }, rows)), h("button", { type: "submit", id: "policy-save" }, "Save policy"), error);
          return h("div", { class: "card", id: "policy-card" }, h("h2", {}, "Tenant policy"),
            h("p", { class: "muted" }, "The tenant's own limits: each may only tighten the platform's. Empty keeps the platform's."),
            can("policy.manage") ? form : table(["Key", "Value"], POLICY_FIELDS.filter(([k]) => current[k] !== undefined && current[k] !== null)
              .map(([k, label]) => h("tr", {}, h("td", {}, label), h("td", {}, String(current[k])))), "The platform's limits apply."));
        }
        """#
}
