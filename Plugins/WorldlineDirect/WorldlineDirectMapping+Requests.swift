#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension WorldlineDirectMapping {
    /// The `paymentData` key holding the app's encrypted customer input.
    static let encryptedInputKey = "encrypted_customer_input"
    /// The next action type of a client session.
    static let sessionActionType = "worldline_client_session"

    /// The session lifetime in seconds: the account option `client_session_lifetime_seconds` when it is a
    /// positive integer, at most 3 h (Worldline's own limit); else 3 h.
    static func sessionLifetime(options: [String: String]) -> Int64 {
        guard let value = options.integer("client_session_lifetime_seconds"), value > 0 else {
            return defaultSessionLifetime
        }
        return min(value, defaultSessionLifetime)
    }

    /// The pending outcome of `authorize`: the client session the app's SDK needs, until it expires.
    static func sessionOutcome(_ session: WorldlineSessionResponse, now: Date, lifetime: Int64) -> Outcome {
        let expiresAt = ProviderTime.epochSeconds(now) + lifetime
        var data: [String: JSONValue] = ["expires_at": .integer(expiresAt)]
        data["clientSessionId"] = session.clientSessionId.map(JSONValue.string)
        data["customerId"] = session.customerId.map(JSONValue.string)
        data["clientApiUrl"] = session.clientApiUrl.map(JSONValue.string)
        data["assetUrl"] = session.assetUrl.map(JSONValue.string)
        // A client session precedes the payment at Worldline: a new one can replace an expired one.
        let action = NextAction(
            type: sessionActionType, data: data, expiresAt: Date(timeIntervalSince1970: TimeInterval(expiresAt)),
            renewable: true)
        return Outcome(kind: .pending, providerStatus: "SESSION_CREATED", nextAction: action)
    }

    /// Whether the session handed to `complete` has expired (`expires_at`, epoch seconds, not after now).
    /// A session without `expires_at` is not judged.
    static func sessionExpired(_ session: [String: JSONValue], now: Date) -> Bool {
        guard let expiresAt = session["expires_at"]?.integerValue else { return false }
        return TimeInterval(expiresAt) <= now.timeIntervalSince1970
    }

    /// The create-payment body: a final authorisation for manual capture, a sale otherwise; webhooks go to
    /// `webhookURL` (the account's notification URL) as well as to the portal's URLs.
    static func createPaymentRequest(_ request: CompleteRequest, encryptedInput: String, webhookURL: String)
        -> WorldlineCreatePaymentRequest
    {
        WorldlineCreatePaymentRequest(
            encryptedCustomerInput: encryptedInput,
            order: WorldlineOrder(
                amountOfMoney: WorldlineAmountOfMoney(amount: request.amount, currencyCode: request.currency),
                references: WorldlineReferences(merchantReference: request.merchantReference)
            ),
            cardPaymentMethodSpecificInput: WorldlineCardInput(
                authorizationMode: request.captureMode == .manual ? "FINAL_AUTHORIZATION" : "SALE",
                returnUrl: request.returnURL,
                threeDSecure: request.returnURL.map {
                    WorldlineThreeDSecure(redirectionData: WorldlineRedirectionData(returnUrl: $0))
                }
            ),
            feedbacks: webhookURL.isEmpty ? nil : WorldlineFeedbacks(webhooksUrls: [webhookURL])
        )
    }

    /// The capture body.
    static func captureRequest(_ request: CaptureRequest) -> WorldlineCaptureRequest {
        WorldlineCaptureRequest(amount: request.amount, isFinal: request.isFinal)
    }

    /// The refund body.
    static func refundRequest(_ request: RefundRequest) -> WorldlineRefundRequest {
        WorldlineRefundRequest(
            amountOfMoney: WorldlineAmountOfMoney(amount: request.amount, currencyCode: request.currency))
    }
}
