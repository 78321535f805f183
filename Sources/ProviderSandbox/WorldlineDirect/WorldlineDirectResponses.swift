import Foundation

/// Builds the wire objects of the Worldline Direct emulator from its payments.
enum WorldlineDirectResponses {
    private static let authorisedStatuses: Set<WorldlineDirectPaymentStatus> = [.pendingCapture, .captured, .refunded]

    static func statusOutput(_ payment: WorldlineDirectPayment) -> WDStatusOutput {
        let status = payment.status
        let authorised = authorisedStatuses.contains(status)
        return WDStatusOutput(
            statusCode: status.statusCode,
            statusCategory: status.category,
            isAuthorized: authorised,
            isCancellable: status == .pendingCapture || status == .authorizationRequested,
            isRefundable: status == .captured && payment.amountRefunded < payment.amountCaptured,
            errors: status == .rejected ? [WDAPIError(.declined)] : nil,
            statusCodeChangeDateTime: timestamp(payment.updatedAt)
        )
    }

    static func payment(_ payment: WorldlineDirectPayment, details: Bool = false) -> WDPaymentResponse {
        let money = WDAmountOfMoney(amount: payment.amount, currencyCode: payment.currency)
        let authorised = authorisedStatuses.contains(payment.status)
        return WDPaymentResponse(
            id: payment.id,
            status: payment.status.rawValue,
            statusOutput: statusOutput(payment),
            paymentOutput: WDPaymentOutput(
                amountOfMoney: money,
                acquiredAmount: WDAmountOfMoney(amount: payment.amountCaptured, currencyCode: payment.currency),
                references: .init(merchantReference: payment.merchantReference),
                paymentMethod: "card",
                cardPaymentMethodSpecificOutput: WDCardOutput(
                    paymentProductId: payment.paymentProductId,
                    authorisationCode: authorised ? String(payment.id.prefix(6)) : nil,
                    card: .init(cardNumber: payment.maskedCardNumber, expiryDate: payment.expiryDate, bin: payment.bin)
                )
            ),
            operations: details ? payment.operations.map(operation) : nil
        )
    }

    static func operation(_ operation: WorldlineDirectOperation) -> WDOperationOutput {
        WDOperationOutput(
            id: operation.id, type: operation.type, amountOfMoney: WDAmountOfMoney(amount: operation.amount),
            operationReferences: operation.merchantReference.map { WDOperationReferences(merchantReference: $0) })
    }

    static func createPayment(_ payment: WorldlineDirectPayment, redirectBase: String) -> WDCreatePaymentResponse {
        var action: WDMerchantAction?
        if payment.status == .redirected {
            action = WDMerchantAction(
                actionType: "REDIRECT",
                redirectData: .init(
                    redirectURL: "\(redirectBase)/_sandbox/worldline-direct/challenge/\(payment.id)",
                    RETURNMAC: String(payment.id.prefix(10))))
        }
        return WDCreatePaymentResponse(
            creationOutput: .init(externalReference: nil, isNewToken: false, tokenizationSucceeded: false),
            merchantAction: action,
            payment: self.payment(payment)
        )
    }

    static func capture(_ payment: WorldlineDirectPayment, _ operation: WorldlineDirectOperation) -> WDCaptureResponse {
        WDCaptureResponse(
            id: operation.id, status: "CAPTURED",
            statusOutput: WDStatusOutput(statusCode: 9, statusCategory: "COMPLETED"),
            captureOutput: .init(
                amountOfMoney: WDAmountOfMoney(amount: operation.amount, currencyCode: payment.currency),
                acquiredAmount: WDAmountOfMoney(amount: operation.amount, currencyCode: payment.currency),
                operationReferences: operation.merchantReference.map { WDOperationReferences(merchantReference: $0) },
                paymentMethod: "card"))
    }

    static func refund(_ payment: WorldlineDirectPayment, _ operation: WorldlineDirectOperation) -> WDRefundResponse {
        WDRefundResponse(
            id: operation.id, status: "REFUNDED",
            statusOutput: WDStatusOutput(statusCode: 8, statusCategory: "REFUNDED", isCancellable: false),
            refundOutput: .init(
                amountOfMoney: WDAmountOfMoney(amount: operation.amount, currencyCode: payment.currency),
                amountPaid: operation.amount,
                operationReferences: operation.merchantReference.map { WDOperationReferences(merchantReference: $0) },
                paymentMethod: "card"))
    }

    static func error(_ error: WorldlineDirectSandboxError, paymentResult: WDCreatePaymentResponse? = nil)
        -> WDErrorResponse
    {
        WDErrorResponse(
            errorId: UUID().uuidString.lowercased(), errors: [WDAPIError(error)], paymentResult: paymentResult)
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
