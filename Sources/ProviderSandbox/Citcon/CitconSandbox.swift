import Foundation
import Hummingbird
import Logging

/// Emulator of Citcon UPI's server API, served under `/citcon` by ``SandboxServer``.
///
/// It issues tokens from the configured merchants' private keys, keeps charges, captures, cancels and
/// refunds in memory with Citcon's error codes, enforces per-merchant reference uniqueness (`4100`),
/// sends signed IPNs to `urls.ipn` (retried until acknowledged), and records every money movement in a
/// ledger.
///
/// Magic amounts decide how the confirm step (`POST /v1/charges/{charge_token}` or ``confirm(chargeToken:method:)``)
/// ends, by `amount % 1000`:
/// - `402`: the charge becomes `failed` with code `4021` (declined); IPN status `fail`; no ledger entry.
/// - `408`: the charge becomes `pending` and stays so; no IPN, no ledger entry.
/// - anything else: `succeeded` (auto capture, IPN `success`) or `authorized` (IPN `authorized`), with a
///   `charge` ledger entry.
///
/// Admin surface under `/_sandbox/citcon`: `GET ledger[?merchant=]`, `GET/POST/DELETE faults`,
/// `GET tokens`, `POST tokens/expire[?merchant=]`, `POST confirm/{charge_token}`
/// (body `{"method":"alipay"}`, optional), `GET charges/{id}`, `POST chargebacks/{charge_id}` (body
/// `{"status":"Notification of Claim","amount":…}`: opens or moves the charge's chargeback and sends its IPN),
/// `GET notifications`.
public struct CitconSandbox: Sendable {
    let name = "citcon"
    let configuration: CitconSandboxConfiguration
    let state: CitconState
    /// Fault rules applied to this emulator's wire API.
    public let faults = SandboxFaultInjector()
    let notifier: SandboxNotifier
    let logger: Logger

    init(
        configuration: CitconSandboxConfiguration,
        clock: @escaping @Sendable () -> Date,
        notifier: SandboxNotifier,
        logger: Logger
    ) {
        self.configuration = configuration
        self.state = CitconState(configuration: configuration, clock: clock)
        self.notifier = notifier
        self.logger = logger
    }

    // MARK: SDK helper

    /// Plays the mobile SDK's confirm step for a pending charge, through the same logic as the HTTP
    /// endpoint (magic amounts, IPN, ledger).
    /// - Parameters:
    ///   - chargeToken: the `charge_token` returned when the charge was created.
    ///   - method: the payment method, e.g. `alipay`.
    /// - Returns: the charge after the confirm.
    /// - Throws: ``CitconSandboxError`` (`4004` unknown token, `4101` already confirmed, `4102` expired).
    public func confirm(chargeToken: String, method: String) async throws -> CitconCharge {
        try await confirm(chargeToken: chargeToken, method: method, merchant: nil)
    }

    func confirm(chargeToken: String, method: String, merchant: String?) async throws(CitconSandboxError)
        -> CitconCharge
    {
        let (charge, event) = try await state.confirm(chargeToken: chargeToken, method: method, merchant: merchant)
        logger.info(
            "citcon.charge.confirmed",
            metadata: ["provider.account": .string(charge.merchant), "citcon.status": .string(charge.status.rawValue)]
        )
        await send(event)
        return charge
    }

    // MARK: Inspection

    /// A charge by Citcon id.
    public func charge(id: String) async -> CitconCharge? {
        await state.charge(id: id)
    }

    /// A charge by merchant and merchant reference.
    public func charge(merchant: String, reference: String) async -> CitconCharge? {
        await state.charge(merchant: merchant, reference: reference)
    }

    /// Every money movement so far, oldest first, optionally for one merchant.
    public func ledger(merchant: String? = nil) async -> [CitconLedgerEntry] {
        let all = await state.ledger
        guard let merchant else { return all }
        return all.filter { $0.merchant == merchant }
    }

    /// Number of access tokens of `kind` issued to `merchant`.
    public func tokensIssued(merchant: String, kind: CitconTokenKind) async -> Int {
        await state.tokensIssued(merchant: merchant, kind: kind)
    }

    /// Makes every token of `merchant` (or of all merchants) expire now, so the next call gets `4010`.
    public func expireTokens(merchant: String? = nil) async {
        await state.expireTokens(merchant: merchant)
    }

    /// Every IPN delivery attempt so far, oldest first.
    public func notificationAttempts() async -> [SandboxNotificationAttempt] {
        await notifier.attempts.filter { $0.provider == name }
    }

    // MARK: IPN

    /// Signs `event` with the merchant's secret (or a wrong one under `badSignature`) and queues it.
    func send(_ event: CitconIPNEvent?) async {
        guard let event, let merchant = await state.merchant(id: event.merchant) else { return }
        if await faults.takeDroppedNotification(merchant: merchant.id) { return }
        let corrupt = await faults.takeBadSignature(merchant: merchant.id)
        let fields = event.signedFields(secret: merchant.ipnSecret, corrupt: corrupt)
        let (body, contentType) = CitconIPNEvent.encode(fields, as: configuration.ipnEncoding)
        await notifier.enqueue(
            SandboxNotification(
                provider: name,
                merchant: merchant.id,
                subject: event.subject,
                url: event.url,
                contentType: contentType,
                body: body
            )
        )
    }
}
