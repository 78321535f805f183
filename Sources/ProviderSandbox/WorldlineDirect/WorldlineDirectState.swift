import Foundation
import SwitchyardCrypto

/// In-memory state of the Worldline Direct emulator: client sessions, the client-API RSA key, payments,
/// idempotence records and the ledger.
actor WorldlineDirectState {
    struct Session: Sendable {
        var merchantId: String
        var customerId: String
        var expiresAt: Date
        var used: Bool
    }

    /// A recorded answer to replay for an idempotence key.
    struct StoredResponse: Sendable {
        var status: Int
        var body: [UInt8]
        var firstRequestAt: Date
    }

    enum IdempotenceRecord: Sendable {
        case running
        case done(StoredResponse)
    }

    enum IdempotenceStart: Sendable {
        case proceed
        case inProgress
        case replay(StoredResponse)
    }

    let configuration: WorldlineDirectSandboxConfiguration
    let clock: @Sendable () -> Date
    private var sessions: [String: Session] = [:]
    private var key: (id: String, privateKey: RSAPrivateKey)?
    var payments: [String: WorldlineDirectPayment] = [:]
    private var idempotence: [String: IdempotenceRecord] = [:]
    var ledger: [WorldlineDirectLedgerEntry] = []
    /// Payment ids are 10 digits + `_0`, starting at a random point so that a restarted sandbox never
    /// hands out an id it gave before.
    private var nextPaymentNumber = Int64.random(in: 1_000_000_000...8_999_999_999)

    init(configuration: WorldlineDirectSandboxConfiguration, clock: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.clock = clock
    }

    var now: Date { clock() }

    // MARK: Sessions and key

    /// Creates a client session for `merchantId`.
    func createSession(merchantId: String) -> (clientSessionId: String, customerId: String) {
        let id = Hex.encode(SecureRandom.bytes(16))
        let customer = "\(Int.random(in: 1000...9999))-\(Hex.encode(SecureRandom.bytes(16)))"
        sessions[id] = Session(
            merchantId: merchantId, customerId: customer,
            expiresAt: now.addingTimeInterval(configuration.sessionLifetime),
            used: false)
        return (id, customer)
    }

    /// The session of a client API call (`GCS v1Client:<id>` for `customerId`), unexpired.
    func clientSession(id: String, customerId: String) throws(WorldlineDirectSandboxError) -> Session {
        guard let session = sessions[id], session.customerId == customerId else {
            throw .authentication("unknown client session")
        }
        guard session.expiresAt > now else { throw .sessionExpired }
        return session
    }

    /// Marks a session as used by an `encryptedCustomerInput`, after checking it may still be used.
    func consumeSession(id: String, merchantId: String) throws(WorldlineDirectSandboxError) {
        guard var session = sessions[id], session.merchantId == merchantId else { throw .sessionUnknown }
        guard session.expiresAt > now else { throw .sessionExpired }
        guard !session.used else { throw .sessionUsed }
        session.used = true
        sessions[id] = session
    }

    /// Makes every client session expire now.
    func expireSessions() {
        for id in sessions.keys { sessions[id]?.expiresAt = now.addingTimeInterval(-1) }
    }

    /// The client-API RSA key, generated on first use.
    func rsaKey() throws(WorldlineDirectSandboxError) -> (id: String, privateKey: RSAPrivateKey) {
        if let key { return key }
        guard let generated = try? RSAPrivateKey.generate(bits: configuration.publicKeyBits) else {
            throw .internalError
        }
        let created = (id: Hex.encode(SecureRandom.bytes(8)), privateKey: generated)
        key = created
        return created
    }

    // MARK: Idempotence

    private func idempotenceKey(_ merchantId: String, _ key: String) -> String { merchantId + "\u{0}" + key }

    /// Registers `key` as running, or tells how to answer a replay.
    func beginIdempotent(merchantId: String, key: String) -> IdempotenceStart {
        switch idempotence[idempotenceKey(merchantId, key)] {
        case .running: return .inProgress
        case .done(let stored): return .replay(stored)
        case nil:
            idempotence[idempotenceKey(merchantId, key)] = .running
            return .proceed
        }
    }

    /// Stores the answer of the first request with `key`.
    func finishIdempotent(merchantId: String, key: String, status: Int, body: [UInt8], startedAt: Date) {
        idempotence[idempotenceKey(merchantId, key)] = .done(
            StoredResponse(status: status, body: body, firstRequestAt: startedAt))
    }

    // MARK: Payments

    func makePaymentID() -> String {
        nextPaymentNumber += 1
        return "\(nextPaymentNumber)_0"
    }

    func payment(id: String) -> WorldlineDirectPayment? { payments[id] }

    func payment(merchantId: String, id: String) throws(WorldlineDirectSandboxError) -> WorldlineDirectPayment {
        guard let payment = payments[id], payment.merchantId == merchantId else { throw .unknownPayment }
        return payment
    }

    func record(_ kind: String, _ payment: WorldlineDirectPayment, operationId: String, amount: Int64) {
        ledger.append(
            WorldlineDirectLedgerEntry(
                kind: kind, merchantId: payment.merchantId, paymentId: payment.id, operationId: operationId,
                amount: amount, currency: payment.currency, time: now))
    }
}
