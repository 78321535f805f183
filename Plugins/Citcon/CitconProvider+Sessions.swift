#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension CitconProvider {
    /// A client token for the app, asking up to ``CitconMapping/clientTokenAttempts`` times; nil when none
    /// could be obtained. A refused private key is not asked again.
    func clientToken(account: AccountContext) async -> AccessToken? {
        for attempt in 1...CitconMapping.clientTokenAttempts {
            var fields = ["citcon.call": CitconCall.accessToken.rawValue, "citcon.try": String(attempt)]
            guard let result = try? await accessToken(AccessTokenRequest(kind: "client"), account: account) else {
                host.log(.warning, "citcon client token unavailable", account: account, fields)
                return nil
            }
            if let token = result.token { return token }
            fields["outcome.code"] = result.failure?.code ?? ""
            host.log(.warning, "citcon client token unavailable", account: account, fields)
            if result.failure?.kind == .declined { return nil }
        }
        return nil
    }

    /// A created charge the app cannot pay (no client token): cancelled at Citcon (`POST /v1/cancels`, our
    /// attempt id with `-cancel` as the cancel reference), and the attempt declined with
    /// `client_token_unavailable`. When the cancel is not confirmed the charge stays open at Citcon until it
    /// expires, but nobody holds its charge token, so nothing can be paid through it.
    func abandon(_ charge: CitconChargeData, reference: String, token: Secret, account: AccountContext) async
        -> Outcome
    {
        let cancel = CitconCancelRequest(
            id: charge.id, reference: reference + CitconMapping.abandonSuffix, transactionReference: reference)
        var canceled = false
        if let body = try? ProviderJSON.standard.encode(cancel) {
            let outcome = await operation(.void, path: "/v1/cancels", token: token, body: body, account: account)
            canceled = outcome.kind == .succeeded || outcome.kind == .canceled
        }
        host.log(
            .warning, "citcon charge abandoned without a client token", account: account,
            ["citcon.call": CitconCall.void.rawValue, "citcon.canceled": canceled ? "true" : "false"])
        let message =
            canceled
            ? "no client token could be obtained for the app; the charge was canceled at Citcon"
            : "no client token could be obtained for the app; the charge could not be canceled and "
                + "expires unused at Citcon"
        return Outcome(
            kind: .declined, providerPaymentId: charge.id, providerStatus: canceled ? "canceled" : charge.status,
            amount: charge.amount, code: CitconMapping.clientTokenUnavailable, message: message, retryable: false)
    }

    /// The outcome of an inquiry that finds the charge still open: `pending` with the charge token from the
    /// inquiry and a fresh client token. Without either the outcome stays `unknown` (a payment waiting for the
    /// app keeps its session; an unknown one is asked again later, until Citcon settles or expires the charge).
    func reissuedSession(_ transaction: CitconTransactionData, account: AccountContext) async -> Outcome {
        var open = Outcome(
            kind: .unknown, providerPaymentId: transaction.id, providerStatus: transaction.status,
            amount: transaction.amount)
        guard let chargeToken = transaction.chargeToken, !chargeToken.isEmpty else {
            open.explain(
                code: "missing_charge_token",
                message: "the charge is open at Citcon, but its inquiry carries no charge token for the app")
            return open
        }
        guard let client = await clientToken(account: account) else {
            open.explain(
                code: CitconMapping.clientTokenUnavailable,
                message: "the charge is open at Citcon, but no client token could be obtained for the app")
            return open
        }
        let charge = CitconChargeData(
            object: transaction.object, id: transaction.id, chargeToken: chargeToken, reference: transaction.reference,
            amount: transaction.amount, currency: transaction.currency, country: transaction.country,
            status: transaction.status, autoCapture: transaction.autoCapture, timeCreated: transaction.timeCreated,
            expiry: transaction.expiry)
        return CitconMapping.chargeOutcome(charge, clientToken: client, environment: account.environment)
    }
}
