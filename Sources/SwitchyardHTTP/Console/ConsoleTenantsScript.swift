/// A part of the operator console's script (see ``ConsoleAssets/script``).
import SwitchyardCore

enum ConsoleTenantsScript {
    /// Tenants with their API keys and API-version pins, and provider accounts.
    static let source = #"""
        /// The merchant API versions this server knows, oldest first.
        const API_VERSIONS = \#(APIVersion.all.map { "\"\($0.name)\"" }.joined(separator: ", ").wrappedInBrackets);

        /// The tenant's pin, and (for roles holding `tenants.manage`) a picker that moves it after a confirmation.
        function pinCell(t) {
          if (!can("tenants.manage")) return h("td", { class: "api-version" }, t.api_version || "—");
          const picker = h("select", { class: "pin-version" }, API_VERSIONS.map((v) =>
            h("option", { value: v, selected: v === t.api_version }, v)));
          const save = h("button", { type: "button", class: "small ghost pin-save", onclick: async () => {
            if (picker.value === t.api_version) return;
            if (!window.confirm("Pin " + t.name + " to API version " + picker.value + "? Its integrations get that version's behaviour.")) return;
            const moved = await attempt(() => api("PATCH", "/admin/v1/tenants/" + t.id, { api_version: picker.value }));
            if (moved) { toast(t.name + " pinned to " + moved.api_version); refresh(); }
          } }, "Pin");
          return h("td", { class: "api-version" }, picker, " ", save);
        }

        function keyStatus(k) {
          const now = Date.now();
          if (k.revoked_at) return badge("revoked", "bad");
          if (k.expires_at && new Date(k.expires_at).getTime() <= now) return badge("expired", "bad");
          if (k.expires_at) return badge("expires " + when(k.expires_at), "warn");
          return badge("active", "ok");
        }

        function secretOnce(key) {
          return h("div", { class: "secret-once", id: "new-secret" },
            h("strong", {}, "New key “" + key.name + "”: copy the secret now, it is not shown again."), h("br"),
            h("code", { id: "new-secret-value" }, key.secret));
        }

        views.tenants = async () => {
          await loadTenants();
          const error = h("p", { class: "error", role: "alert" });
          const name = h("input", { id: "tenant-name", placeholder: "Merchant name", required: true, maxlength: 200 });
          const create = h("form", { class: "inline", id: "tenant-form", "data-perm": "tenants.manage", onsubmit: async (e) => {
            e.preventDefault();
            const t = await attempt(() => api("POST", "/admin/v1/tenants", { name: name.value }), error);
            if (t) { state.tenant = t.id; toast("Tenant “" + t.name + "” created"); refresh(); }
          } }, h("label", {}, "New tenant", name), h("button", { type: "submit" }, "Create tenant"), error);
          const rows = state.tenants.map((t) => h("tr", { class: t.id === state.tenant ? "selected" : "", "data-tenant": t.id },
            h("td", {}, t.name), h("td", {}, h("code", {}, t.id)), h("td", {}, when(t.created_at)), pinCell(t),
            h("td", {}, h("button", { type: "button", class: "small ghost", onclick: () => {
              state.tenant = t.id; $("#tenant-select").value = t.id; refresh(); } }, "Select"))));
          return h("div", {},
            h("div", { class: "card" }, h("h1", {}, "Tenants"), create,
              table(["Name", "Id", "Created", "API version", ""], rows, "No tenant yet.")),
            state.tenant ? await keysCard(state.tenant) : "", state.tenant ? await policyCard(state.tenant) : "");
        };

        async function keysCard(tenant, fresh) {
          const keys = await listAll("/admin/v1/tenants/" + tenant + "/api-keys");
          const card = h("div", { class: "card", id: "keys-card" });
          const redraw = async (created) => card.replaceWith(await keysCard(tenant, created));
          const error = h("p", { class: "error", role: "alert" });
          const name = h("input", { id: "key-name", placeholder: "e.g. checkout server" });
          const payments = h("input", { type: "checkbox", checked: true, id: "scope-payments" });
          const admin = h("input", { type: "checkbox", id: "scope-admin" });
          const form = h("form", { class: "inline", id: "key-form", "data-perm": "keys.manage", onsubmit: async (e) => {
            e.preventDefault();
            const scopes = [payments.checked && "payments", admin.checked && "admin"].filter(Boolean);
            const key = await attempt(() => api("POST", "/admin/v1/tenants/" + tenant + "/api-keys",
              { name: name.value || "api key", scopes }), error);
            if (key) redraw(key);
          } }, h("label", {}, "Key name", name), h("label", { class: "check" }, payments, "payments"),
            h("label", { class: "check" }, admin, "admin"), h("button", { type: "submit" }, "Create key"), error);
          const rows = keys.map((k) => h("tr", {},
            h("td", {}, k.name), h("td", {}, h("code", {}, k.prefix + "…")), h("td", {}, k.scopes.join(", ")),
            h("td", {}, keyStatus(k)), h("td", {}, when(k.created_at)), h("td", {}, when(k.last_used_at)),
            h("td", {}, k.revoked_at ? "" : [
              h("button", { type: "button", class: "small ghost", "data-perm": "keys.manage", onclick: async () => {
                const created = await attempt(() => api("POST",
                  "/admin/v1/tenants/" + tenant + "/api-keys/" + k.id + "/rotate", { grace_seconds: 86400 }));
                if (created) redraw(created);
              } }, "Rotate"), " ",
              h("button", { type: "button", class: "small danger", "data-perm": "keys.manage", onclick: async () => {
                if (!confirm("Revoke the key " + k.prefix + "…? Calls with it fail at once.")) return;
                if ((await attempt(() => api("DELETE", "/admin/v1/tenants/" + tenant + "/api-keys/" + k.id))) !== undefined)
                  redraw();
              } }, "Revoke")])));
          card.append(h("h2", {}, "API keys of " + tenantName(tenant)), form, fresh ? secretOnce(fresh) : "",
            table(["Name", "Prefix", "Scopes", "Status", "Created", "Last used", ""], rows, "No API key yet."));
          return card;
        }

        function credentialRows(container) {
          const add = (name) => container.append(h("div", { class: "inline cred" },
            h("input", { placeholder: "credential name", class: "cred-name", value: name || "" }),
            h("input", { type: "password", placeholder: "value (write-only)", class: "cred-value", autocomplete: "off" })));
          return add;
        }
        function readCredentials(container) {
          const out = {};
          for (const row of container.querySelectorAll(".cred")) {
            const n = $(".cred-name", row).value.trim(), v = $(".cred-value", row).value;
            if (n && v) out[n] = v;
          }
          return out;
        }

        views.accounts = async () => {
          const tenant = state.tenant;
          if (!tenant) return h("div", { class: "card" }, h("p", { class: "empty" }, "Create a tenant first."));
          const [accounts, plugins] = await Promise.all([
            listAll("/admin/v1/tenants/" + tenant + "/provider-accounts"), api("GET", "/admin/v1/plugins")]);
          const error = h("p", { class: "error", role: "alert" });
          const plugin = h("select", { id: "account-plugin" },
            (plugins.loaded || []).map((p) => h("option", { value: p.id }, p.id + " (" + p.provider + " " + p.version + ")")));
          const name = h("input", { id: "account-name", placeholder: "Display name" });
          const env = h("select", { id: "account-environment" }, h("option", {}, "sandbox"), h("option", {}, "production"));
          const baseURL = h("input", { id: "account-base-url", placeholder: "https://…", size: 40, required: true });
          const creds = h("div", { id: "account-credentials" });
          const addCred = credentialRows(creds);
          addCred(); addCred();
          const form = h("form", { id: "account-form", "data-perm": "accounts.manage", onsubmit: async (e) => {
            e.preventDefault();
            const body = { plugin: plugin.value, name: name.value || undefined, environment: env.value,
              base_url: baseURL.value, credentials: readCredentials(creds) };
            const created = await attempt(() => api("POST", "/admin/v1/tenants/" + tenant + "/provider-accounts", body), error);
            if (created) { toast("Account “" + created.name + "” created"); refresh(); }
          } },
            h("div", { class: "inline" }, h("label", {}, "Plugin", plugin), h("label", {}, "Name", name),
              h("label", {}, "Environment", env), h("label", {}, "Base URL", baseURL)),
            h("h3", {}, "Credentials"), creds,
            h("div", { class: "inline" }, h("button", { type: "button", class: "ghost small", onclick: () => addCred() },
              "Add credential"), h("button", { type: "submit", id: "account-create" }, "Create account")), error);
          const rows = accounts.map((a) => accountRow(tenant, a));
          return h("div", {},
            h("div", { class: "card" }, h("h1", {}, "Provider accounts of " + tenantName(tenant)),
              table(["Name", "Plugin", "Environment", "State", "Base URL", "Credentials", ""], rows, "No account yet.")),
            h("div", { class: "card" }, h("h2", {}, "New provider account"),
              h("p", { class: "muted" }, "Secret credentials are write-only: they are stored encrypted and shown masked."),
              form));
        };

        function accountRow(tenant, a) {
          const row = h("tr", { "data-account": a.id },
            h("td", {}, h("strong", {}, a.name), h("br"), h("code", { class: "muted" }, a.id)),
            h("td", {}, a.plugin), h("td", {}, a.environment),
            h("td", {}, a.enabled ? badge("enabled", "ok") : badge("disabled", "bad")),
            h("td", {}, h("code", {}, a.base_url)),
            h("td", {}, Object.entries(a.credentials).map(([k, v]) => h("div", {}, h("code", {}, k + ": " + v)))),
            h("td", {}, h("button", { type: "button", class: "small ghost account-edit", "data-perm": "accounts.manage",
              onclick: () => row.after(accountEditor(tenant, a)) }, "Edit")));
          return row;
        }

        function accountEditor(tenant, a) {
          const error = h("p", { class: "error", role: "alert" });
          const name = h("input", { value: a.name, class: "edit-name" });
          const baseURL = h("input", { value: a.base_url, size: 40, class: "edit-base-url" });
          const enabled = h("input", { type: "checkbox", checked: a.enabled });
          const creds = h("div", {});
          const addCred = credentialRows(creds);
          for (const k of Object.keys(a.credentials)) addCred(k);
          const form = h("form", { onsubmit: async (e) => {
            e.preventDefault();
            const body = { name: name.value, base_url: baseURL.value, enabled: enabled.checked };
            const changed = readCredentials(creds);
            if (Object.keys(changed).length) body.credentials = changed;
            if (await attempt(() => api("PATCH", "/admin/v1/tenants/" + tenant + "/provider-accounts/" + a.id, body), error)) {
              toast("Account updated"); refresh();
            }
          } }, h("div", { class: "inline" }, h("label", {}, "Name", name), h("label", {}, "Base URL", baseURL),
            h("label", { class: "check" }, enabled, "enabled")),
            h("p", { class: "muted" }, "Leave a credential empty to keep its current value."), creds,
            h("button", { type: "submit", class: "edit-save" }, "Save"), error);
          return h("tr", { class: "account-editor" }, h("td", { colspan: 7 }, form));
        }
        """#
}

extension String {
    /// The text in square brackets: a JavaScript array of the items it lists.
    fileprivate var wrappedInBrackets: String { "[" + self + "]" }
}
