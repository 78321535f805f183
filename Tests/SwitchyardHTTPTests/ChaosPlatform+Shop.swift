import Foundation
import ProviderSandbox
import TestWaiting

/// The merchant of a chaos run: one tenant with a Citcon account (US dollars, the app's session flow) and an
/// Antom account (Singapore dollars, card-on-file payments decided server to server), and a vaulted card.
struct ChaosShop: Sendable {
    var tenantId: String
    var apiKey: String
    var citconAccount: String
    var antomAccount: String
    /// The customer whose vaulted card pays the Antom payments.
    var customer: String
    var paymentMethod: String
}

extension ChaosPlatform {
    /// Creates the shop through the operator API and vaults its customer's card (before any fault).
    func openShop() async throws -> ChaosShop {
        let tenant = try await admin(.POST, "/admin/v1/tenants", json: ["name": "Chaos Shop"], expected: 201)
        let tenantId = try value(tenant, "id")
        let key = try await admin(
            .POST, "/admin/v1/tenants/\(tenantId)/api-keys", json: ["name": "k", "scopes": ["payments", "admin"]],
            expected: 201)
        let citcon = try await admin(
            .POST, "/admin/v1/tenants/\(tenantId)/provider-accounts",
            json: [
                "plugin": "citcon", "base_url": sandboxURL + "/citcon", "environment": "sandbox",
                "credentials": [
                    "private_key": TestStack.citconMerchant.privateKey,
                    "ipn_secret": TestStack.citconMerchant.ipnSecret,
                ],
            ], expected: 201)
        let antomKey = try await send(.GET, sandboxURL + "/_sandbox/antom/public-key")
        let antom = try await admin(
            .POST, "/admin/v1/tenants/\(tenantId)/provider-accounts",
            json: [
                "plugin": "antom", "base_url": sandboxURL + "/antom", "environment": "sandbox",
                "credentials": [
                    "client_id": TestStack.antomClientId, "private_key": TestStack.antomMerchantKey.pkcs8PEM,
                    "antom_public_key": try value(antomKey.json, "publicKey"),
                ],
                "options": TestStack.antomOptions,
            ], expected: 201)
        let citconAccount = try value(citcon, "id")
        let antomAccount = try value(antom, "id")
        _ = try await admin(
            .PUT, "/admin/v1/tenants/\(tenantId)/routing",
            json: [
                "rules": [
                    ["name": "wallets", "match": ["currencies": ["USD"]], "accounts": [citconAccount]],
                    ["name": "cards", "match": ["currencies": ["SGD"]], "accounts": [antomAccount]],
                ]
            ], expected: 200)
        var shop = ChaosShop(
            tenantId: tenantId, apiKey: try value(key, "secret"), citconAccount: citconAccount,
            antomAccount: antomAccount, customer: "chaos-customer", paymentMethod: "")
        shop.paymentMethod = try await vaultCard(shop)
        return shop
    }

    /// A vaulting session for the shop's customer, completed by the app with a test card; the card's `pm_…`.
    private func vaultCard(_ shop: ChaosShop) async throws -> String {
        let session = try await send(
            .POST, replicaURL(0) + "/v1/customers/\(shop.customer)/vaulting-sessions", token: shop.apiKey,
            json: ["return_url": "https://shop.example/vaulted", "country": "SG"])
        guard session.status == 201 else { throw TestFailure("vaulting session: \(session.status) \(session.text)") }
        let paymentMethod = try value(session.json, "id")
        let data = (session.json["next_action"] as? [String: Any])?["data"] as? [String: Any] ?? [:]
        let completed = try await send(
            .POST, sandboxURL + "/_sandbox/antom/vaulting/\(try value(data, "vaultingSessionId"))/complete",
            json: ["cardNumber": AntomTestCard.visa, "expiryMonth": "12", "expiryYear": "30", "cvv": "123"])
        guard completed.status == 200 else { throw TestFailure("vaulting: \(completed.status) \(completed.text)") }
        let active = try await Poll.holds("the vaulted card active", within: .seconds(30), every: .milliseconds(200)) {
            let method = try await send(
                .GET, replicaURL(0) + "/v1/customers/\(shop.customer)/payment-methods/\(paymentMethod)",
                token: shop.apiKey)
            return method.json["status"] as? String == "active"
        }
        guard active else { throw TestFailure("the vaulted card did not become active") }
        return paymentMethod
    }

    private func value(_ json: [String: Any], _ name: String) throws -> String {
        guard let value = json[name] as? String, !value.isEmpty else { throw TestFailure("no \(name) in \(json)") }
        return value
    }
}
