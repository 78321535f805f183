#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension CitconProvider {
    /// Verifies an IPN's `sign` with the account's `ipn_secret` and reports what it says.
    ///
    /// An unverified IPN gets HTTP 401 and no events; a verified one gets HTTP 200 `success` and one
    /// event built from the signed fields only, identified by those fields in their canonical order.
    public func notification(
        _ request: NotificationRequest, account: AccountContext
    ) async throws -> NotificationResult {
        let secret = try account.credentials.require(Credential.ipnSecret)
        guard let pairs = CitconIPNBody.parse(request.body, contentType: request.header("Content-Type")) else {
            return rejected("unreadable body", account: account)
        }
        switch CitconSigning.verify(pairs, secret: secret.reveal()) {
        case .rejected(let reason):
            return rejected(reason, account: account)
        case .verified(let signed):
            if CitconMapping.isChargeback(signed) {
                guard let dispute = CitconMapping.chargebackEvent(signed: signed) else {
                    return rejected("chargeback status or id not signed", account: account)
                }
                host.log(.info, "citcon chargeback ipn verified", account: account)
                return NotificationResult(
                    verified: true, reply: .body("success", status: 200), events: [],
                    dedupKey: CitconSigning.canonical(values: signed), disputes: [dispute])
            }
            guard let event = CitconMapping.ipnEvent(signed: signed) else {
                return rejected("status not signed", account: account)
            }
            host.log(.info, "citcon ipn verified", account: account)
            return NotificationResult(
                verified: true, reply: .body("success", status: 200), events: [event],
                dedupKey: CitconSigning.canonical(values: signed))
        }
    }

    /// The answer to an IPN that cannot be trusted.
    func rejected(_ reason: String, account: AccountContext) -> NotificationResult {
        host.rejectNotification(
            reason, reply: .body("unverified", status: 401), account: account, message: "citcon ipn rejected",
            reasonKey: "citcon.ipn.reason")
    }
}
