import ProviderKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The Antom provider (Alipay global AMS): EasySafePay wallet payments (a payment session for the app's
/// AMSEasyPay SDK on the first payment, password-free `pay` with the agreement's access token afterwards),
/// card vaulting sessions for AMSVaulting and payments with vaulted cards, captures, cancels, refunds,
/// inquiries and signed notifications.
///
/// Every call is RSA-signed with the merchant's key, every answer's signature is checked with Antom's key,
/// and everything goes through the host's HTTP service; the plugin keeps no state but the keys it has read
/// (``keyCache``).
public struct AntomProvider: Provider {
    let host: any HostServices

    /// Creates the provider over the host's services.
    public init(host: any HostServices) {
        self.host = host
    }

    /// With a stored credential: `payments/pay` (an EasySafePay agreement payment, or a vaulted card
    /// authorised and, unless the capture mode is manual, captured). Otherwise `payments/createPaymentSession`
    /// for the app's AMSEasyPay SDK, asking for an agreement token when the request sets up a credential; the
    /// outcome is pending with an `antom_payment_session` next action.
    ///
    /// Our attempt id is always the `paymentRequestId`, so Antom deduplicates and `sync` can find the payment.
    ///
    /// - Throws: `bad_request` (nothing sent) for a card payment without a stored card, or a stored credential
    ///   of another kind; `return_url_required` (nothing sent) without a return URL on the request or the
    ///   account; `misconfigured` for unusable credentials.
    public func authorize(_ request: AuthorizeRequest, account: AccountContext) async throws -> Outcome {
        if let credential = request.storedCredential {
            let body = try AntomMapping.payRequest(request, credential: credential, account: account)
            switch try await exchange(.pay, body: body, account: account, as: AntomPayResponse.self) {
            case .outcome(let outcome): return outcome
            case .success(let response):
                let authorizeOnly = credential.kind == AntomMapping.cardKind && request.captureMode == .manual
                return AntomMapping.payOutcome(response, request: request, authorizeOnly: authorizeOnly)
            }
        }
        guard request.method.lowercased() != AntomMapping.cardKind else {
            throw ProviderError(code: "bad_request", message: "an Antom card payment needs a stored card credential")
        }
        let now = ProviderTime.wholeSeconds(host.now())
        let lifetime = AntomMapping.sessionLifetime(options: account.options)
        let body = try AntomMapping.paymentSessionRequest(request, account: account, now: now, lifetime: lifetime)
        let exchange = try await exchange(
            .createPaymentSession, body: body, account: account, as: AntomCreatePaymentSessionResponse.self)
        switch exchange {
        case .outcome(let outcome): return outcome
        case .success(let response):
            return AntomMapping.paymentSessionOutcome(
                response, requestedExpiry: now.addingTimeInterval(TimeInterval(lifetime)))
        }
    }
}
