#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

/// The Worldline Sips provider (Sips 2.0 In-App and Office JSON connectors): In-App order initialisations for
/// the app's InAppSdk (card, 3-D Secure and wallet-card orders), captures (validate), cancellations and refunds,
/// inquiries by our transaction reference, sealed automatic responses, and card vaulting through one Sips wallet
/// per stored card (revoked by deleting the card from its wallet).
///
/// Every request is sealed with the merchant's secret key and every answer's seal is checked with it; everything
/// goes through the host's HTTP service and the plugin keeps no state.
public struct WorldlineSipsProvider: Provider {
    let host: any HostServices

    /// Creates the provider over the host's services.
    public init(host: any HostServices) {
        self.host = host
    }

    /// `checkoutInApp/orderInitialize`: prepares the order the app's InAppSdk then places. The outcome is pending
    /// with a `sips_inapp` next action (`redirectionData`, `redirectionUrl`, `redirectionVersion`,
    /// `publicKeyValue`, `sdkOperationName`, `transactionReference`, and `paymentMeanId` for a wallet card), until
    /// the announced session lifetime ends. Nothing is charged by the initialisation.
    ///
    /// The `transactionReference` is our attempt id without non-alphanumerics, so `sync` can find the order. A
    /// stored credential (kind `card`, token `<merchantWalletId>:<paymentMeanId>`) makes it a wallet order;
    /// `paymentData["three_d_secure"] == true` asks for 3-D Secure. `credentialSetup` is ignored: Sips stores cards
    /// only through the wallet flow. A `94` (reference already used) is resolved by an inquiry.
    ///
    /// - Throws: `bad_request` (nothing sent) for an unsupported currency, an attempt id that cannot be a
    ///   reference, or an unusable stored credential; `misconfigured` for unusable credentials.
    public func authorize(_ request: AuthorizeRequest, account: AccountContext) async throws -> Outcome {
        let keys = try keys(of: account)
        let reference = try SipsMapping.transactionReference(attemptId: request.attemptId)
        let walletCard = try request.storedCredential.map(SipsMapping.walletCard)
        let body = try SipsMapping.orderInitializeRequest(
            request, reference: reference, walletCard: walletCard, keys: keys, account: account)
        let expiresAt = sessionExpiry(account)
        let exchange = try await exchange(
            .orderInitialize, body: body, keys: keys, account: account, as: SipsInitializeResponse.self)
        switch exchange {
        case .outcome(let outcome):
            return outcome.naming(reference)
        case .success(let response):
            switch SipsMapping.classify(response, service: .orderInitialize) {
            case .accepted:
                var extra: [String: JSONValue] = [
                    "sdkOperationName": .string(body.sdkOperationName), "transactionReference": .string(reference),
                ]
                extra["paymentMeanId"] = walletCard.map { .string($0.paymentMeanId) }
                return SipsMapping.initializeOutcome(
                    response, actionType: SipsMapping.orderActionType, extra: extra,
                    expiresAt: expiresAt, providerPaymentId: reference)
            case .duplicate:
                let inquiry = try await transactionData(reference, keys: keys, account: account)
                return SipsMapping.duplicateInquiryOutcome(inquiry, reference: reference)
            case .outcome(let outcome):
                return outcome.naming(reference)
            }
        }
    }

    /// When an In-App session initialised now ends: the account's announced lifetime from the host's clock
    /// (whole seconds).
    func sessionExpiry(_ account: AccountContext) -> Date {
        let lifetime = SipsMapping.sessionLifetime(options: account.options)
        return ProviderTime.wholeSeconds(host.now()).addingTimeInterval(TimeInterval(lifetime))
    }
}
