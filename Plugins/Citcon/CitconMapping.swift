#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

/// Pure mapping between Switchyard's requests and outcomes and Citcon's wire types.
enum CitconMapping {
    /// Default lifetime of an access token when Citcon's answer carries no `expiry`.
    static let defaultTokenLifetime: TimeInterval = 24 * 60 * 60

    /// How long after an attempt's start an inquiry by our reference that finds nothing (HTTP 404 / `4004`)
    /// proves the charge never reached Citcon. A charge request that timed out may still be processed a
    /// moment later (PROVIDERS.md §1.10: a timeout is an unknown outcome), so the default is well past any
    /// provider timeout; the account option `not_found_delay_seconds` overrides it.
    static let notFoundDelay: TimeInterval = 60

    /// How many times a client token is asked for before a created charge is given up (one try and two retries).
    static let clientTokenAttempts = 3

    /// The code of an attempt whose charge was created but could not be handed out without a client token.
    static let clientTokenUnavailable = "client_token_unavailable"

    /// Appended to the attempt id to make the reference of the cancel of an abandoned charge.
    static let abandonSuffix = "-cancel"

    // MARK: Status table

    /// Normalises a Citcon status, whatever its spelling, to an outcome class.
    ///
    /// `succeeded|success|captured` → succeeded; `authorized` → authorized; `initiated|pending` → pending;
    /// `failed|fail` → declined; `canceled|cancelled|expired` → canceled; anything else → unknown.
    static func outcomeKind(forStatus status: String?) -> Outcome.Kind {
        switch status?.trimmingBlanks().lowercased() {
        case "succeeded", "success", "captured": return .succeeded
        case "authorized": return .authorized
        case "initiated", "pending": return .pending
        case "failed", "fail": return .declined
        case "canceled", "cancelled", "expired": return .canceled
        default: return .unknown
        }
    }

    /// Whether a charge with this status still waits for the app's confirm step (`initiated`); a `pending` charge
    /// was confirmed and waits for the wallet.
    static func isAwaitingTheApp(_ status: String?) -> Bool {
        status?.trimmingBlanks().lowercased() == "initiated"
    }

    /// An outcome carrying only what a payment's status says (the caller adds ids and amounts).
    static func statusOutcome(_ status: String?) -> Outcome {
        let kind = outcomeKind(forStatus: status)
        var outcome = Outcome(kind: kind, providerStatus: status)
        switch kind {
        case .declined:
            outcome.explain(code: "payment_failed", message: "Citcon reports the payment failed", retryable: false)
        case .canceled:
            let expired = status?.lowercased() == "expired"
            outcome.explain(
                code: expired ? "payment_expired" : "payment_canceled",
                message: expired ? "Citcon reports the payment expired" : "Citcon reports the payment canceled")
        case .unknown:
            outcome.explain(code: "unrecognised_status", message: "Citcon status is not recognised")
        default:
            break
        }
        return outcome
    }

    // MARK: Requests

    /// The access-token request for a token kind.
    static func accessTokenRequest(kind: String) -> CitconAccessTokenRequest {
        CitconAccessTokenRequest(tokenType: kind)
    }

    /// A pending charge for the mobile SDK: our attempt id is the reference.
    static func chargeRequest(_ request: AuthorizeRequest, account: AccountContext) -> CitconChargeRequest {
        CitconChargeRequest(
            transaction: CitconChargeTransaction(
                reference: request.attemptId,
                amount: request.amount,
                currency: request.currency,
                country: request.country,
                autoCapture: request.captureMode == .automatic,
                note: request.merchantReference.isEmpty ? nil : request.merchantReference
            ),
            urls: CitconURLs(ipn: account.notificationURL, success: request.returnURL, fail: request.returnURL)
        )
    }

    /// A capture of the charge `chargeId`; the operation id is the capture reference.
    static func captureRequest(_ request: CaptureRequest, chargeId: String) -> CitconCaptureRequest {
        CitconCaptureRequest(id: chargeId, reference: request.operationId, amount: request.amount)
    }

    /// A cancel of the charge `chargeId`; the operation id is the cancel reference.
    static func cancelRequest(_ request: VoidRequest, chargeId: String) -> CitconCancelRequest {
        CitconCancelRequest(
            id: chargeId, reference: request.operationId, transactionReference: request.payment.attemptId)
    }

    /// A refund of the charge `chargeId`; the refund id is the refund reference.
    static func refundRequest(_ request: RefundRequest, chargeId: String) -> CitconRefundRequest {
        CitconRefundRequest(id: chargeId, reference: request.refundId, amount: request.amount, note: request.reason)
    }

    // MARK: Responses

    /// A Citcon epoch value as a date: values of 1e12 and above are milliseconds, smaller ones seconds.
    static func date(fromEpoch value: Int64) -> Date {
        value >= 1_000_000_000_000
            ? Date(timeIntervalSince1970: TimeInterval(value) / 1000)
            : Date(timeIntervalSince1970: TimeInterval(value))
    }

    /// An access token from Citcon's answer; a missing expiry means the default lifetime from `now`.
    static func accessToken(from data: CitconAccessTokenData, now: Date) -> AccessToken {
        let expiresAt = data.expiry.map(date(fromEpoch:)) ?? now.addingTimeInterval(defaultTokenLifetime)
        return AccessToken(token: data.accessToken, expiresAt: expiresAt)
    }

    /// The outcome of a created charge.
    ///
    /// A pending charge becomes `pending` with a `citcon_sdk` next action for the mobile SDK; the client
    /// token is left out when none could be obtained (the charge exists either way).
    static func chargeOutcome(_ charge: CitconChargeData, clientToken: AccessToken?, environment: String) -> Outcome {
        var outcome = statusOutcome(charge.status ?? "initiated")
        outcome.providerPaymentId = charge.id
        outcome.amount = charge.amount
        guard outcome.kind == .pending else { return outcome }
        guard let chargeToken = charge.chargeToken, !chargeToken.isEmpty else {
            return Outcome(
                kind: .unknown, providerPaymentId: charge.id, providerStatus: charge.status, amount: charge.amount,
                code: "missing_charge_token", message: "Citcon created the charge without a charge token"
            )
        }
        let chargeExpiry = charge.expiry.map(date(fromEpoch:))
        var data: [String: JSONValue] = [
            "charge_token": .string(chargeToken),
            "environment": .string(environment),
        ]
        if let clientToken {
            data["client_token"] = .string(clientToken.token)
            data["client_token_expires_at"] = .integer(ProviderTime.epochSeconds(clientToken.expiresAt))
        }
        if let chargeExpiry {
            data["charge_expires_at"] = .integer(ProviderTime.epochSeconds(chargeExpiry))
        }
        let expiries = [clientToken?.expiresAt, chargeExpiry].compactMap { $0 }
        outcome.nextAction = NextAction(type: "citcon_sdk", data: data, expiresAt: expiries.min())
        return outcome
    }

    /// The outcome of an inquiry: the payment's state and amounts.
    static func transactionOutcome(_ transaction: CitconTransactionData) -> Outcome {
        var outcome = statusOutcome(transaction.status)
        outcome.providerPaymentId = transaction.id
        outcome.amount = transaction.amount
        outcome.capturedAmount = transaction.amountCaptured
        outcome.refundedAmount = transaction.amountRefunded
        return outcome
    }

    /// The outcome of an accepted capture, cancel or refund: `succeeded` unless the object's status
    /// says it is still pending, failed, or something we do not recognise.
    static func operationOutcome(_ operation: CitconOperationData) -> Outcome {
        var outcome = Outcome(
            kind: .succeeded, providerPaymentId: operation.id, providerStatus: operation.status,
            amount: operation.amount, refundedAmount: operation.amountRefunded
        )
        guard let status = operation.status else { return outcome }
        switch outcomeKind(forStatus: status) {
        case .succeeded, .canceled:
            break
        case .pending:
            outcome.kind = .pending
        case .declined:
            outcome.kind = .declined
            outcome.explain(code: "operation_failed", message: "Citcon reports the operation failed", retryable: false)
        default:
            outcome.kind = .unknown
            outcome.explain(code: "unrecognised_status", message: "Citcon status is not recognised")
        }
        return outcome
    }

}
