import Foundation
import SwitchyardCrypto

/// The Citcon emulator's in-memory state: merchants, tokens, charges and the ledger.
///
/// Every operation runs on the actor, so checks and writes of one request are atomic; operations
/// that must notify the merchant return a ``CitconIPNEvent`` for the caller to sign and send.
actor CitconState {
    struct IssuedToken {
        var merchant: String
        var kind: CitconTokenKind
        var expiresAt: Date
    }

    let configuration: CitconSandboxConfiguration
    let clock: @Sendable () -> Date
    private let merchantsByKey: [String: CitconSandboxMerchant]
    private let merchantsByID: [String: CitconSandboxMerchant]
    private var tokens: [String: IssuedToken] = [:]
    private var tokenCounts: [String: [CitconTokenKind: Int]] = [:]
    var charges: [String: CitconCharge] = [:]
    var chargeIDByToken: [String: String] = [:]
    var chargeIDByReference: [String: [String: String]] = [:]
    var usedReferences: [String: Set<String>] = [:]
    /// Chargebacks by charge id.
    var chargebacks: [String: CitconChargeback] = [:]
    private var usedIDs: Set<String> = []
    private(set) var ledger: [CitconLedgerEntry] = []

    init(configuration: CitconSandboxConfiguration, clock: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.clock = clock
        var byKey: [String: CitconSandboxMerchant] = [:]
        var byID: [String: CitconSandboxMerchant] = [:]
        for merchant in configuration.merchants {
            byKey[merchant.privateKey] = merchant
            byID[merchant.id] = merchant
        }
        self.merchantsByKey = byKey
        self.merchantsByID = byID
    }

    // MARK: Merchants and tokens

    /// The configured merchant with this id.
    func merchant(id: String) -> CitconSandboxMerchant? { merchantsByID[id] }

    /// The merchant a bearer value belongs to: a private key or an access token (even an expired one).
    func merchant(forBearer bearer: String) -> String? {
        merchantsByKey[bearer]?.id ?? tokens[bearer]?.merchant
    }

    /// Issues an access token to the merchant whose private key is `privateKey`.
    func issueToken(privateKey: String?, kind: CitconTokenKind) throws(CitconSandboxError) -> CitconTokenData {
        guard let privateKey, let merchant = merchantsByKey[privateKey] else { throw .unauthorized }
        let expiresAt = clock().addingTimeInterval(configuration.tokenLifetime)
        var token: String
        repeat {
            token = "UPI_" + SecureRandom.token(bytes: 32)
        } while tokens[token] != nil
        tokens[token] = IssuedToken(merchant: merchant.id, kind: kind, expiresAt: expiresAt)
        tokenCounts[merchant.id, default: [:]][kind, default: 0] += 1
        let expiry =
            configuration.tokenExpiryInMilliseconds
            ? Int64((expiresAt.timeIntervalSince1970 * 1000).rounded(.down)) : expiresAt.epochSeconds
        return CitconTokenData(
            accessToken: token,
            tokenType: kind.rawValue,
            expiry: expiry,
            permission: Self.permissions(of: kind)
        )
    }

    /// The merchant owning a valid, unexpired token; server-only calls refuse client tokens.
    func authenticate(bearer: String?, serverOnly: Bool) throws(CitconSandboxError) -> String {
        guard let bearer, let token = tokens[bearer], clock() < token.expiresAt else { throw .unauthorized }
        if serverOnly && token.kind != .server { throw .forbidden }
        return token.merchant
    }

    /// Number of tokens of `kind` issued to `merchant` so far.
    func tokensIssued(merchant: String, kind: CitconTokenKind) -> Int {
        tokenCounts[merchant]?[kind] ?? 0
    }

    /// Token counts of every merchant.
    func tokenCountsByMerchant() -> [String: [String: Int]] {
        tokenCounts.mapValues { counts in
            Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) })
        }
    }

    /// Makes the tokens of `merchant` (or of everyone) expire now.
    func expireTokens(merchant: String?) {
        let now = clock()
        for (value, token) in tokens where merchant == nil || token.merchant == merchant {
            tokens[value]?.expiresAt = min(token.expiresAt, now)
        }
    }

    static func permissions(of kind: CitconTokenKind) -> [String] {
        switch kind {
        case .server: ["inquiry", "charge", "vault", "consult", "encryption-config", "refund", "capture"]
        case .client: ["inquiry", "charge", "vault", "installment"]
        }
    }

    // MARK: Shared helpers

    /// Records a money movement.
    func appendLedger(_ entry: CitconLedgerEntry) {
        ledger.append(entry)
    }

    /// A fresh 22-digit identifier.
    func newID() -> String {
        while true {
            let bytes = SecureRandom.bytes(22)
            var digits = bytes.map { Character(String($0 % 10)) }
            digits[0] = Character(String(1 + bytes[0] % 9))
            let id = String(digits)
            if usedIDs.insert(id).inserted { return id }
        }
    }

    /// Throws `4100` when `reference` is already used by `merchant`, else reserves it.
    func reserve(reference: String, merchant: String) throws(CitconSandboxError) {
        guard usedReferences[merchant, default: []].insert(reference).inserted else { throw .duplicate }
    }

    /// Whether `reference` is already used by `merchant`.
    func isUsed(reference: String, merchant: String) -> Bool {
        usedReferences[merchant]?.contains(reference) ?? false
    }

    /// Id of the merchant's charge with this Citcon id or merchant reference.
    func chargeID(merchant: String, idOrReference: String) -> String? {
        if let charge = charges[idOrReference], charge.merchant == merchant { return charge.id }
        return chargeIDByReference[merchant]?[idOrReference]
    }

    /// Moves an unconfirmed charge past its lifetime to `expired`.
    func applyExpiry(chargeID: String) {
        guard let charge = charges[chargeID], charge.status == .initiated, clock() >= charge.expiresAt else { return }
        charges[chargeID]?.status = .expired
    }
}
