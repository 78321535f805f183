import Foundation

/// A merchant known to the Worldline Sips emulator.
public struct WorldlineSipsSandboxMerchant: Sendable, Hashable {
    /// The `merchantId` of requests (also names the merchant in faults and the ledger).
    public var merchantId: String
    /// The secret key that seals requests, answers and automatic responses (treat as a secret).
    public var secretKey: String
    /// The `keyVersion` requests must carry and automatic responses state (1 by default).
    public var keyVersion: Int

    /// Creates a merchant.
    /// - Parameters:
    ///   - merchantId: the merchant's Sips identifier.
    ///   - secretKey: the merchant's secret key.
    ///   - keyVersion: the version of that key.
    public init(merchantId: String, secretKey: String, keyVersion: Int = 1) {
        self.merchantId = merchantId
        self.secretKey = secretKey
        self.keyVersion = keyVersion
    }

    /// The public SIMU test merchants `002001000000001` to `002001000000003` (secret `<merchantId>_KEY1`,
    /// key version 1), for a sandbox that should accept the well-known test credentials.
    public static let publicTestMerchants: [WorldlineSipsSandboxMerchant] = (1...3).map { index in
        let id = "00200100000000\(index)"
        return WorldlineSipsSandboxMerchant(merchantId: id, secretKey: id + "_KEY1", keyVersion: 1)
    }
}

/// How automatic responses are sealed.
public enum WorldlineSipsAutomaticResponseSeal: String, Sendable, Codable, CaseIterable {
    /// `Seal` = lowercase hex HMAC-SHA256(secret, Data); `sealAlgorithm=HMAC-SHA-256` in Data.
    case hmacSHA256
    /// `Seal` = lowercase hex SHA-256(Data followed by the secret); `sealAlgorithm=SHA-256` in Data.
    case sha256

    /// The `sealAlgorithm` value stated in the automatic response's Data.
    var sealAlgorithm: String {
        switch self {
        case .hmacSHA256: "HMAC-SHA-256"
        case .sha256: "SHA-256"
        }
    }
}

/// Settings of the Worldline Sips emulator.
public struct WorldlineSipsSandboxConfiguration: Sendable {
    /// The merchants whose sealed requests are accepted (none by default).
    public var merchants: [WorldlineSipsSandboxMerchant]
    /// Lifetime of an In-App init context (`redirectionData`), in seconds (15 min by default); an app
    /// call on an older one is answered `97`.
    public var initLifetime: TimeInterval
    /// How automatic responses are sealed (HMAC-SHA256 by default).
    public var automaticResponseSeal: WorldlineSipsAutomaticResponseSeal
    /// Whether automatic responses carry their Data base64-encoded (`Encode=base64`; the seal is then
    /// over the base64 text). False by default.
    public var automaticResponseBase64: Bool
    /// The `InterfaceVersion` of automatic responses (`HP_2.39` by default).
    public var automaticResponseInterfaceVersion: String

    /// Creates a configuration.
    /// - Parameters:
    ///   - merchants: the merchants whose requests are accepted.
    ///   - initLifetime: lifetime of In-App init contexts, in seconds.
    ///   - automaticResponseSeal: the seal of automatic responses.
    ///   - automaticResponseBase64: whether automatic responses' Data is base64-encoded.
    ///   - automaticResponseInterfaceVersion: the `InterfaceVersion` of automatic responses.
    public init(
        merchants: [WorldlineSipsSandboxMerchant] = [],
        initLifetime: TimeInterval = 15 * 60,
        automaticResponseSeal: WorldlineSipsAutomaticResponseSeal = .hmacSHA256,
        automaticResponseBase64: Bool = false,
        automaticResponseInterfaceVersion: String = "HP_2.39"
    ) {
        self.merchants = merchants
        self.initLifetime = initLifetime
        self.automaticResponseSeal = automaticResponseSeal
        self.automaticResponseBase64 = automaticResponseBase64
        self.automaticResponseInterfaceVersion = automaticResponseInterfaceVersion
    }

    /// Checks the settings, so a command can refuse a bad configuration before serving.
    /// - Throws: ``WorldlineSipsSandboxError`` with code `INVALID_CONFIGURATION` naming the setting (never
    ///   a secret's value).
    public func validate() throws(WorldlineSipsSandboxError) {
        var seen = Set<String>()
        for merchant in merchants {
            guard !merchant.merchantId.isEmpty else {
                throw .invalidConfiguration("a merchant has an empty merchantId")
            }
            guard seen.insert(merchant.merchantId).inserted else {
                throw .invalidConfiguration("merchant \(merchant.merchantId) is configured twice")
            }
            guard !merchant.secretKey.isEmpty else {
                throw .invalidConfiguration("merchant \(merchant.merchantId) has an empty secretKey")
            }
            guard merchant.keyVersion >= 1 else {
                throw .invalidConfiguration("merchant \(merchant.merchantId) has a keyVersion below 1")
            }
        }
        guard initLifetime > 0 else { throw .invalidConfiguration("initLifetime must be positive") }
        guard automaticResponseInterfaceVersion.hasPrefix("HP_") else {
            throw .invalidConfiguration("automaticResponseInterfaceVersion must start with HP_")
        }
    }
}
