import Foundation
import SwitchyardCrypto

/// What a wire call produced: the answer body (unsigned JSON) and the notifications to send.
struct AntomReply: Sendable {
    var body: [UInt8]
    var events: [AntomEvent] = []

    init(body: [UInt8], events: [AntomEvent] = []) {
        self.body = body
        self.events = events
    }

    init(_ value: some Encodable, events: [AntomEvent] = []) {
        self.init(body: AntomJSON.encode(value), events: events)
    }

    init(result: AntomResult) {
        self.init(AntomResultOnly(result: result))
    }
}

/// A state change the merchant is told about by notification.
enum AntomEvent: Sendable {
    /// notifyPayment `PAYMENT_RESULT`.
    case payment(AntomPayment)
    /// notifyAuthorization `TOKEN_CREATED`.
    case tokenCreated(AntomAccessToken)
    /// notifyAuthorization `TOKEN_CANCELED`.
    case tokenCanceled(AntomAccessToken)
    /// notifyVaulting.
    case vaulting(AntomState.VaultingSession, AntomState.VaultedCard?)
    /// notifyCapture.
    case capture(AntomPayment, AntomTransaction)
    /// notifyRefund, to `url` (the refund's or the payment's notify URL).
    case refund(AntomPayment, AntomTransaction, url: String?)
    /// notifyDispute of `type` (`DISPUTE_CREATED`, `DISPUTE_JUDGED`, …).
    case dispute(AntomDispute, type: String)
}

/// In-memory state of the Antom emulator: payment sessions, payments, access tokens, vaulting sessions,
/// vaulted cards, idempotency records and the ledger.
actor AntomState {
    struct PaymentSession: Sendable {
        var id: String
        var clientId: String
        var paymentId: String
        var authState: String?
        var userLoginId: String?
        var redirectURL: String
        var expiresAt: Date
        /// Completed through the admin API (the user answered).
        var completed = false
        /// Closed without an answer: expired, or its payment was cancelled.
        var closed = false
    }

    struct VaultingSession: Sendable {
        var id: String
        var clientId: String
        var vaultingRequestId: String
        var notifyURL: String
        var expiresAt: Date
        var createdAt: Date
        var status = "PROCESSING"
        var resultCode = "VERIFICATION_IN_PROCESS"
        var resultMessage = "waiting for the card"
        var cardToken: String?
    }

    struct VaultedCard: Sendable {
        var token: String
        var clientId: String
        var maskedCardNo: String
        var brand: String
        var expiryMonth: String
        var expiryYear: String
        var lastFour: String
        var bin: String
        var fingerprint: String
        var failureCard: Bool

        var detail: AntomCardDetail {
            AntomCardDetail(
                cardToken: token, maskedCardNo: maskedCardNo, brand: brand, expiryYear: expiryYear,
                expiryMonth: expiryMonth, lastFour: lastFour, bin: bin, fingerprint: fingerprint)
        }
    }

    struct Refund: Sendable {
        var paymentId: String
        var clientId: String
        var transaction: AntomTransaction
    }

    private struct IdempotencyRecord: Sendable {
        var endpoint: String
        var canonical: String
        var body: [UInt8]
    }

    let configuration: AntomSandboxConfiguration
    let clock: @Sendable () -> Date
    private var signer: RSAPrivateKey?
    var sessions: [String: PaymentSession] = [:]
    var payments: [String: AntomPayment] = [:]
    var paymentIdsByRequest: [String: String] = [:]
    var tokens: [String: AntomAccessToken] = [:]
    var vaultingSessions: [String: VaultingSession] = [:]
    var vaultingIdsByRequest: [String: String] = [:]
    var cards: [String: VaultedCard] = [:]
    var refunds: [String: Refund] = [:]
    var refundIdsByRequest: [String: String] = [:]
    var disputes: [String: AntomDispute] = [:]
    private var idempotency: [String: IdempotencyRecord] = [:]
    private(set) var ledger: [AntomLedgerEntry] = []
    private var sequence: Int64 = 0

    init(configuration: AntomSandboxConfiguration, clock: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.clock = clock
    }

    var now: Date { clock() }

    /// Antom's signing key: the configured one, or one generated on first use.
    func signingKey() throws(AntomSandboxError) -> RSAPrivateKey {
        if let signer { return signer }
        let key: RSAPrivateKey?
        if let pem = configuration.privateKeyPEM {
            key = try? RSAPrivateKey(keyText: pem)
        } else {
            key = try? RSAPrivateKey.generate(bits: 2048)
        }
        guard let key else { throw .keyUnavailable }
        signer = key
        return key
    }

    // MARK: Idempotency

    /// Runs `work` once per (client, scope, request id); a replay with the same endpoint and canonical
    /// body gets the first answer back (without events), anything else `F REPEAT_REQ_INCONSISTENT`.
    func idempotent(
        scope: String, clientId: String, requestId: String, endpoint: String, canonical: String,
        _ work: () -> AntomReply
    ) -> AntomReply {
        let key = Self.key(clientId, scope, requestId)
        if let record = idempotency[key] {
            guard record.endpoint == endpoint, record.canonical == canonical else {
                return AntomReply(result: .repeatInconsistent)
            }
            return AntomReply(body: record.body)
        }
        let reply = work()
        idempotency[key] = IdempotencyRecord(endpoint: endpoint, canonical: canonical, body: reply.body)
        return reply
    }

    static func key(_ parts: String...) -> String { parts.joined(separator: "\u{0}") }

    // MARK: Ids and ledger

    /// A numeric id in Antom's style: the day, a kind marker, then a sequence number.
    func makeID(_ marker: String) -> String {
        sequence += 1
        return AntomTime.dayStamp(now) + marker + String(format: "%012lld", sequence)
    }

    /// A random hexadecimal token of `bytes` bytes.
    func randomHex(_ bytes: Int) -> String {
        Hex.encode(SecureRandom.bytes(bytes))
    }

    func record(_ kind: String, _ payment: AntomPayment, operationId: String? = nil, amount: Int64) {
        ledger.append(
            AntomLedgerEntry(
                kind: kind, merchant: payment.clientId, paymentId: payment.paymentId,
                operationId: operationId ?? payment.paymentId, amount: amount, currency: payment.currency, time: now))
    }

    // MARK: Lookups

    func payment(id: String) -> AntomPayment? { payments[id] }

    /// The merchant's payment by `paymentId` (preferred) or `paymentRequestId`.
    func payment(clientId: String, paymentId: String?, paymentRequestId: String?) -> AntomPayment? {
        closeExpiredSessions()
        if let paymentId {
            guard let payment = payments[paymentId], payment.clientId == clientId else { return nil }
            return payment
        }
        guard let paymentRequestId, let id = paymentIdsByRequest[Self.key(clientId, paymentRequestId)] else {
            return nil
        }
        return payments[id]
    }

    func token(_ accessToken: String) -> AntomAccessToken? { tokens[accessToken] }

    func tokens(authState: String) -> [AntomAccessToken] {
        tokens.values.filter { $0.authState == authState }.sorted { $0.createdAt < $1.createdAt }
    }

    /// Fails the payments of sessions that expired before being completed (`F ORDER_IS_CLOSED`).
    func closeExpiredSessions() {
        let current = now
        for (id, session) in sessions where !session.completed && !session.closed && session.expiresAt <= current {
            sessions[id]?.closed = true
            guard var payment = payments[session.paymentId], payment.status == .processing else { continue }
            payment.status = .fail
            payment.resultCode = AntomResult.orderClosed.resultCode
            payment.resultMessage = "the payment session expired"
            payments[payment.paymentId] = payment
        }
    }

    /// Makes every payment and vaulting session expire now.
    func expireSessions() {
        let past = now.addingTimeInterval(-1)
        for (id, session) in sessions where !session.completed && !session.closed { sessions[id]?.expiresAt = past }
        for (id, session) in vaultingSessions where session.status == "PROCESSING" {
            vaultingSessions[id]?.expiresAt = past
        }
        closeExpiredSessions()
    }
}
