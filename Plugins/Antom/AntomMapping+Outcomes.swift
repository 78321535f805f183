#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension AntomMapping {
    // MARK: Status tables

    /// The class of an inquiry's `paymentStatus`: `SUCCESS` → succeeded, `PENDING` (card authorised, not
    /// captured) → authorized, `PROCESSING` → pending, `FAIL` → declined, `CANCELLED` → canceled, anything
    /// else → unknown.
    static func paymentStatusKind(_ status: String?) -> Outcome.Kind {
        switch status?.trimmingBlanks().uppercased() {
        case "SUCCESS": return .succeeded
        case "PENDING": return .authorized
        case "PROCESSING": return .pending
        case "FAIL": return .declined
        case "CANCELLED": return .canceled
        default: return .unknown
        }
    }

    /// The class of a `refundStatus`: `SUCCESS` → succeeded, `PROCESSING` → pending, `FAIL` → declined,
    /// anything else → unknown.
    static func refundStatusKind(_ status: String?) -> Outcome.Kind {
        switch status?.trimmingBlanks().uppercased() {
        case "SUCCESS": return .succeeded
        case "PROCESSING": return .pending
        case "FAIL": return .declined
        default: return .unknown
        }
    }

    // MARK: Payments

    /// The pending outcome of `createPaymentSession`: what AMSEasyPay needs, until the session expires
    /// (Antom's expiry, else the one we asked for).
    static func paymentSessionOutcome(_ response: AntomCreatePaymentSessionResponse, requestedExpiry: Date)
        -> Outcome
    {
        guard let sessionData = response.paymentSessionData, !sessionData.isEmpty else {
            return Outcome.unknown(code: "unparsable_response", message: "Antom returned no payment session data")
        }
        let expiresAt = parseTime(response.paymentSessionExpiryTime) ?? requestedExpiry
        var data: [String: JSONValue] = [
            "paymentSessionData": .string(sessionData),
            "paymentSessionExpiryTime": .string(response.paymentSessionExpiryTime ?? isoTime(requestedExpiry)),
        ]
        data["paymentSessionId"] = response.paymentSessionId.map(JSONValue.string)
        data["normalUrl"] = response.normalUrl.map(JSONValue.string)
        let action = NextAction(type: paymentSessionActionType, data: data, expiresAt: expiresAt)
        return Outcome(kind: .pending, providerStatus: "SESSION_CREATED", nextAction: action)
    }

    /// The outcome of a successful `pay`: paid, or only authorised for a card with manual capture.
    static func payOutcome(_ response: AntomPayResponse, request: AuthorizeRequest, authorizeOnly: Bool) -> Outcome {
        let amount = response.paymentAmount?.minorUnits ?? request.amount
        if authorizeOnly {
            return Outcome(
                kind: .authorized, providerPaymentId: response.paymentId, providerStatus: "SUCCESS",
                amount: amount)
        }
        return Outcome(
            kind: .succeeded, providerPaymentId: response.paymentId, providerStatus: "SUCCESS", amount: amount,
            capturedAmount: amount)
    }

    /// The outcome of an `inquiryPayment` whose query worked: the payment's status, with captured and refunded
    /// amounts from the successful transactions (a paid payment without capture transactions, a wallet
    /// payment, counts its whole amount as captured).
    static func inquiryOutcome(_ response: AntomInquiryPaymentResponse, payment: PaymentLocator) -> Outcome {
        let kind = paymentStatusKind(response.paymentStatus)
        let amount = response.paymentAmount?.minorUnits
        var outcome = Outcome(
            kind: kind, providerPaymentId: response.paymentId ?? payment.providerPaymentId,
            providerStatus: ProviderText.safeCode(response.paymentStatus), amount: amount)
        let transactions = response.transactions ?? []
        let captures = successful(transactions, type: "CAPTURE")
        let refunds = successful(transactions, type: "REFUND")
        if !refunds.isEmpty { outcome.refundedAmount = checkedSum(refunds) }
        switch kind {
        case .succeeded:
            outcome.capturedAmount = captures.isEmpty ? amount : checkedSum(captures)
        case .declined:
            let code = ProviderText.safeCode(response.paymentResultCode) ?? "FAIL"
            outcome.explain(code: code, message: "Antom reports the payment failed (\(code))", retryable: false)
        case .canceled:
            outcome.explain(code: "payment_cancelled", message: "Antom reports the payment cancelled")
        case .unknown:
            outcome.explain(code: "unrecognised_status", message: "Antom's payment status is not recognised")
        default:
            break
        }
        return outcome
    }

    /// The sum of amounts Antom reports, or nil when it does not fit in 64 bits (such figures are not trusted).
    static func checkedSum(_ amounts: [Int64]) -> Int64? {
        var total: Int64 = 0
        for amount in amounts {
            let (sum, overflow) = total.addingReportingOverflow(amount)
            if overflow { return nil }
            total = sum
        }
        return total
    }

    /// The amounts of the successful transactions of one type.
    static func successful(_ transactions: [AntomTransaction], type: String) -> [Int64] {
        transactions.compactMap { transaction in
            guard transaction.transactionType?.uppercased() == type,
                transaction.transactionStatus?.uppercased() == "SUCCESS"
            else { return nil }
            return transaction.transactionAmount?.minorUnits
        }
    }

    /// The outcome of a successful `capture`, reported against the payment.
    static func captureOutcome(_ response: AntomCaptureResponse, request: CaptureRequest, paymentId: String)
        -> Outcome
    {
        let amount = response.captureAmount?.minorUnits ?? request.amount
        return Outcome(
            kind: .succeeded, providerPaymentId: response.paymentId ?? paymentId, providerStatus: "SUCCESS",
            amount: amount, capturedAmount: amount)
    }

    /// The outcome of a successful `cancel`: the payment is cancelled.
    static func cancelOutcome(_ response: AntomCancelResponse, payment: PaymentLocator) -> Outcome {
        Outcome(
            kind: .canceled, providerPaymentId: response.paymentId ?? payment.providerPaymentId,
            providerStatus: "CANCELLED")
    }

    // MARK: Refunds

    /// The outcome of a successful `refund`; `providerPaymentId` is Antom's refund id.
    static func refundOutcome(_ response: AntomRefundResponse, request: RefundRequest) -> Outcome {
        let amount = response.refundAmount?.minorUnits ?? request.amount
        return Outcome(
            kind: .succeeded, providerPaymentId: response.refundId, providerStatus: "SUCCESS", amount: amount,
            refundedAmount: amount)
    }

    /// The outcome of an `inquiryRefund` whose query worked, by `refundStatus`.
    static func refundStatusOutcome(
        status: String?, refundId: String?, amount: Int64?, failureCode: String? = nil
    ) -> Outcome {
        let kind = refundStatusKind(status)
        var outcome = Outcome(
            kind: kind, providerPaymentId: refundId, providerStatus: ProviderText.safeCode(status), amount: amount)
        switch kind {
        case .succeeded:
            outcome.refundedAmount = amount
        case .declined:
            let code = ProviderText.safeCode(failureCode) ?? "REFUND_FAIL"
            outcome.explain(code: code, message: "Antom reports the refund failed (\(code))", retryable: false)
        case .unknown:
            outcome.explain(code: "unrecognised_status", message: "Antom's refund status is not recognised")
        default:
            break
        }
        return outcome
    }
}
