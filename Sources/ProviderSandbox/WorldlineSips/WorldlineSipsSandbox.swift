import Foundation
import Logging

/// Emulator of Worldline Sips 2.0 (In-App connector, Office JSON services and the In-App SDK's calls),
/// served under `/sips` by ``SandboxServer``.
///
/// Services: `POST /sips/rs-services/v2/<service>` with a JSON body sealed with the merchant's secret
/// (`checkoutInApp/orderInitialize`, `walletInApp/walletInitialize`, `diagnostic/getTransactionData`,
/// `cashManagement/validate|cancel|refund`, `wallet/getWalletData`, `wallet/deletePaymentMean`). Answers
/// are HTTP 200 JSON sealed the same way; an unknown `merchantId` gets an unsealed `03`, a wrong seal
/// (or `keyVersion`) an unsealed `34`, a missing or malformed field a sealed `30` with `errorFieldName`.
///
/// The app's side: `POST /sips/inapp/<function>` (`cardOrder`, `walletOrder`, `cardCheckEnrollment`,
/// `walletCheckEnrollment`, `cardValidateAuthenticationAndOrder`, `addCard`, `getWalletData`,
/// `deletePaymentMean`) with card data in clear (the real SDK's encryption with `publicKeyValue` is not
/// published); answers are sealed with the init's merchant. The ACS page is `GET|POST /sips/acs` (form
/// fields `PaReq`, `MD`, `TermUrl`); its buttons post to `/sips/acs/answer`, which posts `PaRes` and `MD`
/// back to `TermUrl` (or shows `PaRes` when there is none). Every card goes through the ACS step on the
/// 3-D Secure path; only the cardholder's answer decides the authentication.
/// Outcomes follow ``WorldlineSipsTestCard``. Every order decision (and the resolution of a pending
/// one) sends an automatic response (form `Data`/`Seal`/`InterfaceVersion`/`Encode`) to the init's
/// `automaticResponseUrl`, re-sent until answered with a 2xx status.
///
/// Admin surface under `/_sandbox/sips`: `POST transactions/{merchantId}/{transactionReference}/resolve`
/// (`{"approved":true|false}`), `GET transactions/{merchantId}/{transactionReference}`,
/// `GET wallets/{merchantId}/{merchantWalletId}`, `GET ledger[?merchant=]`, `GET notifications`,
/// `POST inits/expire`, `POST acs/authenticate` (`{"paReqMessage":…,"approve":true}` →
/// `{"paResMessage":…}`), `POST faults/respond99` (`{"service":"cashManagement/validate","count":1}`),
/// and the shared fault routes.
public struct WorldlineSipsSandbox: Sendable {
    let name = "sips"
    let configuration: WorldlineSipsSandboxConfiguration
    let state: WorldlineSipsState
    /// Fault rules applied to this emulator's wire API. Rules naming a `merchant` never match: the
    /// merchant is only known from the JSON body, which the fault middleware cannot read.
    public let faults = SandboxFaultInjector()
    let notifier: SandboxNotifier
    let logger: Logger
    let merchantsById: [String: WorldlineSipsSandboxMerchant]

    init(
        configuration: WorldlineSipsSandboxConfiguration,
        clock: @escaping @Sendable () -> Date,
        notifier: SandboxNotifier,
        logger: Logger
    ) {
        self.configuration = configuration
        self.state = WorldlineSipsState(configuration: configuration, clock: clock)
        self.notifier = notifier
        self.logger = logger
        self.merchantsById = Dictionary(
            configuration.merchants.map { ($0.merchantId, $0) }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: Helpers

    /// Ends a PENDING transaction (an order answered `60`): authorised when `approved`, declined `05`
    /// otherwise. Sends the automatic response.
    /// - Throws: ``WorldlineSipsSandboxError`` (`TRANSACTION_NOT_FOUND`, `TRANSACTION_NOT_PENDING`).
    @discardableResult
    public func resolve(merchantId: String, transactionReference: String, approved: Bool)
        async throws(WorldlineSipsSandboxError) -> WorldlineSipsTransaction
    {
        let transaction = try await state.resolve(
            merchantId: merchantId, reference: transactionReference, approved: approved)
        logger.info(
            "sips.transaction.resolved",
            metadata: [
                "provider.account": .string(merchantId), "sips.status": .string(transaction.status.rawValue),
            ])
        await sendAutomaticResponses(for: [transaction])
        return transaction
    }

    /// Plays the cardholder on the ACS page: answers the 3-D Secure step of `paReqMessage`.
    /// - Returns: the `paResMessage` the app passes to `cardValidateAuthenticationAndOrder`.
    /// - Throws: ``WorldlineSipsSandboxError`` `AUTHENTICATION_NOT_FOUND` for an unknown `paReqMessage`.
    public func authenticate(paReqMessage: String, approve: Bool) async throws(WorldlineSipsSandboxError) -> String {
        try await state.authenticate(paReqMessage: paReqMessage, approve: approve)
    }

    /// Makes every In-App init context expire now (app calls on them get `97`).
    public func expireInits() async {
        await state.expireInits()
    }

    /// Makes the next `count` calls of `service` be processed normally (state and ledger written) and
    /// then answered `99` (sealed). `service` is a service path such as `cashManagement/validate` or an
    /// app function such as `inapp/cardOrder`.
    /// - Throws: ``WorldlineSipsSandboxError`` `INVALID_REQUEST` for an unknown service.
    public func respond99(service: String, count: Int = 1) async throws(WorldlineSipsSandboxError) {
        guard SipsService(rawValue: service) != nil || SipsAppFunction.byFaultName[service] != nil else {
            throw .invalidRequest("unknown service \(service)")
        }
        await state.addRespond99(service, count: count)
    }

    /// The `respond99` counts still pending, by service.
    public func pendingRespond99() async -> [String: Int] {
        await state.pendingRespond99
    }

    /// The RSA public key handed out as `publicKeyValue` (bare base64 SPKI).
    public func publicKeyValue() async throws(WorldlineSipsSandboxError) -> String {
        try await state.publicKeyValue()
    }

    // MARK: Inspection

    /// A transaction by merchant and `transactionReference`.
    public func transaction(merchantId: String, transactionReference: String) async -> WorldlineSipsTransaction? {
        await state.transaction(merchantId: merchantId, reference: transactionReference)
    }

    /// A wallet by merchant and `merchantWalletId`.
    public func wallet(merchantId: String, merchantWalletId: String) async -> WorldlineSipsWallet? {
        await state.wallet(merchantId: merchantId, walletId: merchantWalletId)
    }

    /// Every money movement so far, oldest first, optionally for one merchant.
    public func ledger(merchant: String? = nil) async -> [WorldlineSipsLedgerEntry] {
        let all = await state.ledger
        guard let merchant else { return all }
        return all.filter { $0.merchant == merchant }
    }

    /// Every automatic-response delivery attempt so far, oldest first.
    public func notificationAttempts() async -> [SandboxNotificationAttempt] {
        await notifier.attempts.filter { $0.provider == name }
    }
}
