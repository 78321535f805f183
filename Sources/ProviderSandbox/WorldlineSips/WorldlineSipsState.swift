import Foundation
import SwitchyardCrypto

/// What a wire call answered (before sealing) and the transactions whose automatic response is due.
struct SipsAnswer: Sendable {
    var body: SipsObject
    var decided: [WorldlineSipsTransaction] = []

    init(_ body: SipsObject, decided: [WorldlineSipsTransaction] = []) {
        self.body = body
        self.decided = decided
    }
}

/// Card data of an order, as the app sent it (the number stays inside the emulator).
struct SipsCard: Sendable {
    var number: String
    /// `yyyyMM`.
    var expiry: String

    var brand: String {
        if number.hasPrefix("4") { return "VISA" }
        if let two = Int(number.prefix(2)), (51...55).contains(two) || (22...27).contains(two) { return "MASTERCARD" }
        if number.hasPrefix("34") || number.hasPrefix("37") { return "AMEX" }
        return "CB"
    }

    /// First 4 and last 2 digits, `#` between.
    var masked: String {
        String(number.prefix(4)) + String(repeating: "#", count: max(0, number.count - 6)) + String(number.suffix(2))
    }
}

/// In-memory state of the Sips emulator: init contexts, 3-D Secure enrolments, transactions, wallets,
/// the ledger and the `respond99` fault counters.
actor WorldlineSipsState {
    /// A context created by `orderInitialize` or `walletInitialize`, named by its `redirectionData`.
    struct InitContext: Sendable {
        var redirectionData: String
        var redirectionVersion: String
        var merchantId: String
        var operation: String
        var amount: Int64 = 0
        var currencyCode = ""
        var captureMode = "AUTHOR_CAPTURE"
        var captureDay: Int64 = 0
        var transactionReference = ""
        var orderChannel = "INAPP"
        var returnContext: String?
        var customerId: String?
        var orderId: String?
        var merchantWalletId: String?
        var automaticResponseUrl: String?
        var expiresAt: Date
        /// An order was placed with it.
        var used = false
    }

    /// A 3-D Secure step started by `cardCheckEnrollment` or `walletCheckEnrollment`.
    struct Enrollment: Sendable {
        var transactionContextData: String
        var redirectionData: String
        var card: SipsCard
        var paReqMessage: String
        /// The `paResMessage` values the ACS produced for it, with the cardholder's answer.
        var results: [String: Bool] = [:]
    }

    struct StoredCard: Sendable {
        var mean: WorldlineSipsPaymentMean
        var card: SipsCard
    }

    struct WalletRecord: Sendable {
        var createdAt: Date
        var lastActionAt: Date
        var cards: [StoredCard] = []
    }

    static let transactionContextVersion = "1"

    let configuration: WorldlineSipsSandboxConfiguration
    let clock: @Sendable () -> Date
    private var key: RSAPrivateKey?
    var inits: [String: InitContext] = [:]
    /// `transactionReference`s taken, by merchant.
    var references: Set<String> = []
    var transactions: [String: WorldlineSipsTransaction] = [:]
    var enrollments: [String: Enrollment] = [:]
    var enrollmentsByPaReq: [String: String] = [:]
    var wallets: [String: WalletRecord] = [:]
    private(set) var ledger: [WorldlineSipsLedgerEntry] = []
    private var respond99: [String: Int] = [:]
    private var sequence: Int64 = 0

    init(configuration: WorldlineSipsSandboxConfiguration, clock: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.clock = clock
    }

    var now: Date { clock() }

    static func key(_ parts: String...) -> String { parts.joined(separator: "\u{0}") }

    /// The RSA key whose public half is handed out as `publicKeyValue`, generated on first use.
    func publicKeyValue() throws(WorldlineSipsSandboxError) -> String {
        if let key { return key.publicKey.spkiBase64 }
        guard let generated = try? RSAPrivateKey.generate(bits: 2048) else { throw .keyUnavailable }
        key = generated
        return generated.publicKey.spkiBase64
    }

    // MARK: Ids, ledger, faults

    /// A random opaque token (hex).
    func token(_ bytes: Int = 16) -> String { Hex.encode(SecureRandom.bytes(bytes)) }

    /// The next value of the emulator's sequence (authorisation and payment-mean ids).
    func nextSequence() -> Int64 {
        sequence += 1
        return sequence
    }

    func record(_ kind: String, _ transaction: WorldlineSipsTransaction, amount: Int64) {
        ledger.append(
            WorldlineSipsLedgerEntry(
                kind: kind, merchant: transaction.merchantId, transactionReference: transaction.transactionReference,
                amount: amount, currency: transaction.currency, time: now))
    }

    /// Makes the next `count` calls of `name` (a service path or `inapp/<function>`) answer `99`.
    func addRespond99(_ name: String, count: Int) {
        respond99[name, default: 0] += max(0, count)
        if respond99[name] == 0 { respond99[name] = nil }
    }

    /// Whether this call of `name` must answer `99` (consumes one count).
    func takeRespond99(_ name: String) -> Bool {
        guard let left = respond99[name], left > 0 else { return false }
        respond99[name] = left > 1 ? left - 1 : nil
        return true
    }

    /// The `respond99` counts still pending, by service.
    var pendingRespond99: [String: Int] { respond99 }

    // MARK: Lookups

    func transaction(merchantId: String, reference: String) -> WorldlineSipsTransaction? {
        transactions[Self.key(merchantId, reference)]
    }

    func wallet(merchantId: String, walletId: String) -> WorldlineSipsWallet? {
        guard let record = wallets[Self.key(merchantId, walletId)] else { return nil }
        return WorldlineSipsWallet(
            merchantId: merchantId, merchantWalletId: walletId, createdAt: record.createdAt,
            lastActionAt: record.lastActionAt, paymentMeans: record.cards.map(\.mean))
    }

    /// Makes every init context expire now.
    func expireInits() {
        let past = now.addingTimeInterval(-1)
        for id in inits.keys { inits[id]?.expiresAt = past }
    }
}
