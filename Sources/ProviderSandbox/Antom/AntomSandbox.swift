import Foundation
import Logging
import SwitchyardCrypto

/// Emulator of Antom's (Alipay global AMS) server API for EasySafePay and card vaulting, served under
/// `/antom` by ``SandboxServer`` and also at the server's root (the official SDKs take a host only).
///
/// Requests (`POST /ams/api/v1/…` or `/ams/sandbox/api/v1/…`) must carry `client-id`, `request-time` and
/// a `signature` made with the merchant's RSA key over `POST <path as received>\n<clientId>.<time>.<body>`
/// (a path received under `/antom` may be signed with or without that prefix). Answers are HTTP 200,
/// signed with Antom's key over the path the client signed; a request that cannot be authenticated gets an
/// unsigned `F INVALID_CLIENT`, `F INVALID_SIGNATURE` or `F KEY_NOT_FOUND`. Request ids
/// (`paymentRequestId`, `refundRequestId`, `captureRequestId`, `vaultingRequestId`) are idempotent: the
/// same body replays the first answer, a different one gets `F REPEAT_REQ_INCONSISTENT`. Outcomes follow
/// ``AntomTestCard``. Notifications (payment, authorization, vaulting, capture, refund) are signed with
/// Antom's key over the notify URL's path and re-sent until the receiver answers HTTP 200 with
/// `result.resultStatus` `S` and `result.resultCode` `SUCCESS`.
///
/// Admin surface under `/_sandbox/antom`: `GET public-key`, `GET sessions/{id}`,
/// `POST sessions/{id}/complete` (`{"approve":true|false}`), `POST sessions/expire`,
/// `POST tokens/{accessToken}/cancel`, `POST vaulting/{id}/complete` (`{cardNumber, expiryMonth,
/// expiryYear, cvv, holderName}`), `POST payments/{id}/resolve` (`{"approved":true|false}`),
/// `GET payments/{id}`, `GET ledger[?merchant=]`, `GET notifications`, and the fault routes.
public struct AntomSandbox: Sendable {
    let name = "antom"
    let configuration: AntomSandboxConfiguration
    let state: AntomState
    /// Fault rules applied to this emulator's wire API.
    public let faults = SandboxFaultInjector()
    let notifier: SandboxNotifier
    let logger: Logger
    let merchantsById: [String: AntomSandboxMerchant]
    let merchantKeys: [String: RSAPublicKey]

    init(
        configuration: AntomSandboxConfiguration,
        clock: @escaping @Sendable () -> Date,
        notifier: SandboxNotifier,
        logger: Logger
    ) {
        self.configuration = configuration
        self.state = AntomState(configuration: configuration, clock: clock)
        self.notifier = notifier
        self.logger = logger
        self.merchantsById = Dictionary(
            configuration.merchants.map { ($0.clientId, $0) }, uniquingKeysWith: { first, _ in first })
        var keys: [String: RSAPublicKey] = [:]
        for merchant in configuration.merchants where keys[merchant.clientId] == nil {
            if let key = try? RSAPublicKey(keyText: merchant.merchantPublicKey) {
                keys[merchant.clientId] = key
            } else {
                logger.error(
                    "antom.merchant.key_unreadable", metadata: ["provider.account": .string(merchant.clientId)])
            }
        }
        self.merchantKeys = keys
    }

    // MARK: Antom's key

    /// Antom's public key, which verifies the emulator's answers and notifications.
    /// - Throws: ``AntomSandboxError`` `INVALID_KEY` when the configured private key is unreadable.
    public func publicKey() async throws(AntomSandboxError) -> RSAPublicKey {
        try await state.signingKey().publicKey
    }

    /// Antom's public key as bare base64 `SubjectPublicKeyInfo` (the form Antom's dashboard shows).
    public func publicKeyBase64() async throws(AntomSandboxError) -> String {
        try await publicKey().spkiBase64
    }

    // MARK: SDK and wallet helpers

    /// Plays the app and the wallet for a payment session: the user approves (an access token is created
    /// when the session carries `agreementInfo`, then the payment is decided by its amount) or rejects
    /// (`F USER_PAYMENT_VERIFICATION_FAILED`). Sends the notifications.
    /// - Throws: ``AntomSandboxError`` (`SESSION_NOT_FOUND`, `SESSION_EXPIRED`, `SESSION_COMPLETED`, `SESSION_CLOSED`).
    @discardableResult
    public func completeSession(paymentSessionId: String, approve: Bool = true) async throws(AntomSandboxError)
        -> AntomSessionCompletion
    {
        let (completion, events) = try await state.completeSession(id: paymentSessionId, approve: approve)
        logger.info(
            "antom.session.completed",
            metadata: [
                "payment.id": .string(completion.paymentId), "antom.status": .string(completion.status.rawValue),
            ])
        await notify(events)
        return completion
    }

    /// Revokes an access token (the user unbinds the wallet) and sends `TOKEN_CANCELED`.
    /// - Throws: ``AntomSandboxError`` (`TOKEN_NOT_FOUND`, `TOKEN_CANCELED`).
    @discardableResult
    public func cancelToken(_ accessToken: String) async throws(AntomSandboxError) -> AntomAccessToken {
        let token = try await state.cancelToken(accessToken)
        await notify([.tokenCanceled(token)])
        return token
    }

    /// Plays the card-binding page of a vaulting session and sends `notifyVaulting`.
    /// - Throws: ``AntomSandboxError`` (`VAULTING_NOT_FOUND`, `SESSION_EXPIRED`, `SESSION_COMPLETED`, `CARD_INVALID`).
    @discardableResult
    public func completeVaulting(vaultingSessionId: String, card: AntomCardInput) async throws(AntomSandboxError)
        -> AntomVaultingCompletion
    {
        let (completion, events) = try await state.completeVaulting(id: vaultingSessionId, card: card)
        await notify(events)
        return completion
    }

    /// Ends a PROCESSING payment (amount ending in 408): paid when `approved`, `F RISK_REJECT` otherwise.
    /// Sends `notifyPayment`.
    /// - Throws: ``AntomSandboxError`` (`PAYMENT_NOT_FOUND`, `PAYMENT_NOT_PROCESSING`).
    @discardableResult
    public func resolve(paymentId: String, approved: Bool) async throws(AntomSandboxError) -> AntomPayment {
        let (payment, events) = try await state.resolve(paymentId: paymentId, approved: approved)
        await notify(events)
        return payment
    }

    /// Opens a dispute of the paid payment `paymentId` and sends its `DISPUTE_CREATED` notification.
    public func openDispute(
        paymentId: String, type: String = "CHARGEBACK", reasonCode: String = "4853", dueIn: TimeInterval = 7 * 86_400,
        amount: Int64? = nil
    ) async throws(AntomSandboxError) -> AntomDispute {
        let (dispute, event) = try await state.openDispute(
            paymentId: paymentId, type: type, reasonCode: reasonCode, dueIn: dueIn, amount: amount)
        await notify([event])
        return dispute
    }

    /// Moves the dispute `id` as a notifyDispute of `type` says and sends that notification.
    public func moveDispute(id: String, type: String, judgedResult: String? = nil) async throws(AntomSandboxError)
        -> AntomDispute
    {
        let event = try await state.moveDispute(id: id, type: type, judgedResult: judgedResult)
        await notify([event])
        guard let dispute = await state.disputes[id] else { throw .disputeNotFound }
        return dispute
    }

    /// The dispute `id`, as the emulator holds it.
    public func dispute(id: String) async -> AntomDispute? {
        await state.disputes[id]
    }

    /// Makes every payment and vaulting session expire now.
    public func expireSessions() async {
        await state.expireSessions()
    }

    // MARK: Inspection

    /// A payment by Antom's payment id.
    public func payment(id: String) async -> AntomPayment? {
        await state.payment(id: id)
    }

    /// An access token by its value.
    public func accessToken(_ value: String) async -> AntomAccessToken? {
        await state.token(value)
    }

    /// The access tokens created for the merchant's `agreementInfo.authState`, oldest first.
    public func accessTokens(authState: String) async -> [AntomAccessToken] {
        await state.tokens(authState: authState)
    }

    /// Every money movement so far, oldest first, optionally for one client id.
    public func ledger(merchant: String? = nil) async -> [AntomLedgerEntry] {
        let all = await state.ledger
        guard let merchant else { return all }
        return all.filter { $0.merchant == merchant }
    }

    /// Every notification delivery attempt so far, oldest first.
    public func notificationAttempts() async -> [SandboxNotificationAttempt] {
        await notifier.attempts.filter { $0.provider == name }
    }
}
