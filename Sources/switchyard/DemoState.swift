import Foundation

/// What `demo.json` records for a person trying the embedded default: the server, the demo tenant and,
/// per provider, its account id (`<provider>_account_id`) and the merchant ids its registration names.
struct DemoState: Codable {
    var serverURL: String
    var sandboxURL: String
    var operatorToken: String
    var tenantId: String
    var apiKey: String
    /// The providers' fields, by their `demo.json` key (e.g. `citcon_account_id`, `antom_client_id`).
    var providers: [String: String] = [:]

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }

        static let serverURL = Key(stringValue: "server_url")
        static let sandboxURL = Key(stringValue: "sandbox_url")
        static let operatorToken = Key(stringValue: "operator_token")
        static let tenantId = Key(stringValue: "tenant_id")
        static let apiKey = Key(stringValue: "api_key")
        static let fixed = [serverURL, sandboxURL, operatorToken, tenantId, apiKey].map(\.stringValue)
    }

    init(serverURL: String, sandboxURL: String, operatorToken: String, tenantId: String, apiKey: String) {
        self.serverURL = serverURL
        self.sandboxURL = sandboxURL
        self.operatorToken = operatorToken
        self.tenantId = tenantId
        self.apiKey = apiKey
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        serverURL = try container.decode(String.self, forKey: .serverURL)
        sandboxURL = try container.decode(String.self, forKey: .sandboxURL)
        operatorToken = try container.decode(String.self, forKey: .operatorToken)
        tenantId = try container.decode(String.self, forKey: .tenantId)
        apiKey = try container.decode(String.self, forKey: .apiKey)
        for key in container.allKeys where !Key.fixed.contains(key.stringValue) {
            if let value = try? container.decode(String.self, forKey: key) { providers[key.stringValue] = value }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in providers where !Key.fixed.contains(key) {
            try container.encode(value, forKey: Key(stringValue: key))
        }
        try container.encode(serverURL, forKey: .serverURL)
        try container.encode(sandboxURL, forKey: .sandboxURL)
        try container.encode(operatorToken, forKey: .operatorToken)
        try container.encode(tenantId, forKey: .tenantId)
        try container.encode(apiKey, forKey: .apiKey)
    }
}

extension DemoState {
    /// The demo Citcon merchant's private key (`switchyard bench` asks the sandbox for tokens with it).
    var citconPrivateKey: String? { providers["citcon_private_key"] }
    /// The demo Antom merchant's client id (`switchyard bench` signs server-to-server charges for it).
    var antomClientId: String? { providers["antom_client_id"] }
}
