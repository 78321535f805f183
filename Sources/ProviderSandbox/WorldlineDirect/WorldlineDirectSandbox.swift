import Foundation
import Logging
import SwitchyardCrypto

/// Emulator of Worldline Direct's server API and of the client API used by OnlinePaymentsKit, served
/// under `/worldline-direct` by ``SandboxServer``.
///
/// Server calls (`/worldline-direct/v2/{merchantId}/…`) must carry a valid `v1HMAC` signature computed
/// over the headers actually sent and a `Date` within ``WorldlineDirectSandboxConfiguration/allowedDateSkew``
/// of the sandbox clock. The client API (`/worldline-direct/client/v1/{customerId}/…`) is authorised by
/// `GCS v1Client:<clientSessionId>`. Card data arrives in clear (`cardPaymentMethodSpecificInput.card`)
/// or as the SDK's JWE (`encryptedCustomerInput`, usable once per unexpired session). Outcomes follow
/// ``WorldlineDirectTestCard``. `X-GCS-Idempotence-Key` replays the first answer with
/// `X-GCS-Idempotence-Request-Timestamp`, or answers 409 `30001002` while the first is running.
/// State changes send webhooks signed with the merchant's webhook secret (`X-GCS-Signature`,
/// `X-GCS-KeyId`), retried until acknowledged.
///
/// Admin surface under `/_sandbox/worldline-direct`: `GET ledger[?merchant=]`, `GET/POST/DELETE faults`,
/// `GET payments/{id}`, `POST payments/{id}/resolve` (`{"approved":true|false}`),
/// `GET challenge/{id}?result=success|failure`, `POST sessions/expire`, `GET notifications`,
/// `POST encrypt` (`{clientSessionId, customerId, cardNumber, expiryDate, cvv, cardholderName}` →
/// `{encryptedCustomerInput}`).
public struct WorldlineDirectSandbox: Sendable {
    let name = "worldline-direct"
    let configuration: WorldlineDirectSandboxConfiguration
    let state: WorldlineDirectState
    /// Fault rules applied to this emulator's wire API (`decline` included: see `createPayment`).
    public let faults = SandboxFaultInjector(declinesPayments: true)
    let notifier: SandboxNotifier
    let logger: Logger
    let merchantsByKeyId: [String: WorldlineDirectSandboxMerchant]

    init(
        configuration: WorldlineDirectSandboxConfiguration,
        clock: @escaping @Sendable () -> Date,
        notifier: SandboxNotifier,
        logger: Logger
    ) {
        self.configuration = configuration
        self.state = WorldlineDirectState(configuration: configuration, clock: clock)
        self.notifier = notifier
        self.logger = logger
        self.merchantsByKeyId = Dictionary(
            configuration.merchants.map { ($0.apiKeyId, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func merchant(id: String) -> WorldlineDirectSandboxMerchant? {
        configuration.merchants.first { $0.merchantId == id }
    }

    // MARK: SDK helper

    /// Plays OnlinePaymentsKit: reads the public key the client API serves for the session, then builds
    /// the compact JWE of `card` as the SDK does (header text with spaces after commas, `RSA-OAEP` with
    /// SHA-1, `A256CBC-HS512`, a UUID nonce and `paymentValues`).
    /// - Parameters:
    ///   - clientSessionId: the `clientSessionId` returned by `POST /sessions`.
    ///   - customerId: the `customerId` returned with it.
    ///   - card: the card data to encrypt.
    /// - Returns: the `encryptedCustomerInput` value.
    /// - Throws: ``WorldlineDirectSandboxError`` when the session is unknown or expired.
    public func encryptCustomerInput(
        clientSessionId: String,
        customerId: String,
        card: WorldlineDirectCardInput
    ) async throws -> String {
        _ = try await state.clientSession(id: clientSessionId, customerId: customerId)
        let key = try await state.rsaKey()
        return try Self.encrypt(
            card: card, clientSessionId: clientSessionId, keyId: key.id, publicKey: key.privateKey.publicKey)
    }

    /// Builds the SDK's JWE for `card` with an already fetched public key.
    public static func encrypt(
        card: WorldlineDirectCardInput, clientSessionId: String, keyId: String, publicKey: RSAPublicKey
    ) throws -> String {
        var values: [[String: String]] = [
            ["key": "cardNumber", "value": card.cardNumber], ["key": "expiryDate", "value": card.expiryDate],
        ]
        if let cvv = card.cvv { values.append(["key": "cvv", "value": cvv]) }
        if let name = card.cardholderName { values.append(["key": "cardholderName", "value": name]) }
        let payload: [String: Any] = [
            "clientSessionId": clientSessionId,
            "nonce": UUID().uuidString,
            "paymentProductId": WorldlineDirectState.productId(of: card.cardNumber),
            "paymentValues": values,
        ]
        let plaintext = try JSONSerialization.data(withJSONObject: payload)
        let header = "{\"alg\":\"RSA-OAEP\", \"enc\":\"A256CBC-HS512\", \"kid\":\"\(keyId)\"}"
        return try JWE.encrypt(
            plaintext: Array(plaintext), recipient: publicKey, keyId: keyId, algorithm: "RSA-OAEP", headerText: header)
    }

    // MARK: Inspection

    /// Charges the captured payment `paymentID` back: sends its `payment.chargebacked` webhook (the payment's
    /// own state is left as it is). Nil when no captured payment has this id.
    public func chargeback(paymentID: String) async -> WorldlineDirectPayment? {
        guard let payment = await payment(id: paymentID), payment.status == .captured else { return nil }
        await send(.chargeback(payment))
        return payment
    }

    /// A payment by id.
    public func payment(id: String) async -> WorldlineDirectPayment? {
        await state.payment(id: id)
    }

    /// Every money movement so far, oldest first, optionally for one merchant.
    public func ledger(merchant: String? = nil) async -> [WorldlineDirectLedgerEntry] {
        let all = await state.ledger
        guard let merchant else { return all }
        return all.filter { $0.merchantId == merchant }
    }

    /// Completes a 3-D Secure challenge or a pending authorisation: authorised (per the payment's
    /// authorisation mode) when `approved`, rejected otherwise. Sends the webhook.
    /// - Throws: ``WorldlineDirectSandboxError`` (`40401001` unknown payment, `40901001` not waiting).
    @discardableResult
    public func resolve(paymentId: String, approved: Bool) async throws -> WorldlineDirectPayment {
        let (payment, event) = try await state.resolve(id: paymentId, approved: approved)
        await send(event)
        return payment
    }

    /// Makes every client session expire now.
    public func expireSessions() async {
        await state.expireSessions()
    }

    /// Every webhook delivery attempt so far, oldest first.
    public func notificationAttempts() async -> [SandboxNotificationAttempt] {
        await notifier.attempts.filter { $0.provider == name }
    }
}
