#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

/// What a verified notification reports.
struct AntomNotificationContent: Sendable, Equatable {
    var events: [NotificationEvent] = []
    var credentials: [CredentialEvent] = []
}

extension AntomMapping {
    /// The acknowledgement Antom expects, byte for byte; anything else makes Antom send again.
    static let acknowledgement = #"{"result":{"resultCode":"SUCCESS","resultStatus":"S","resultMessage":"success"}}"#
    /// The body fields of notifications that carry credentials (notifyAuthorization's wallet token,
    /// notifyVaulting's card token): never stored by the host.
    static let secretFields = ["accessToken", "cardToken"]
    /// The answer to a notification whose signature does not verify.
    static let signatureRejection =
        #"{"result":{"resultCode":"INVALID_SIGNATURE","resultStatus":"F","resultMessage":"invalid signature"}}"#

    /// The events and credential changes a verified notification carries; unknown kinds carry nothing.
    static func content(of notification: AntomNotification) -> AntomNotificationContent {
        if let type = notification.authorizationNotifyType {
            return AntomNotificationContent(
                credentials: authorizationEvent(notification, type: type).map { [$0] } ?? [])
        }
        let status = notification.result?.resultStatus?.trimmingBlanks().uppercased()
        let code = ProviderText.safeCode(notification.result?.resultCode)
        switch notification.notifyType?.uppercased() {
        case "PAYMENT_RESULT", "PAYMENT_PENDING":
            let pendingOnly = notification.notifyType?.uppercased() == "PAYMENT_PENDING"
            let outcome = paymentNotificationOutcome(notification, status: status, code: code, pendingOnly: pendingOnly)
            return AntomNotificationContent(events: [
                NotificationEvent(
                    subject: .payment, reference: notification.paymentRequestId,
                    providerPaymentId: notification.paymentId, outcome: outcome)
            ])
        case "CAPTURE_RESULT":
            guard status == "S" else { return AntomNotificationContent() }
            let amount = notification.captureAmount?.minorUnits
            let outcome = Outcome(
                kind: .succeeded, providerPaymentId: notification.paymentId, providerStatus: "CAPTURED", amount: amount,
                capturedAmount: amount)
            return AntomNotificationContent(events: [
                NotificationEvent(
                    subject: .payment, reference: nil, providerPaymentId: notification.paymentId, outcome: outcome)
            ])
        case "REFUND_RESULT":
            let refundStatus = notification.refundStatus ?? (status == "S" ? "SUCCESS" : status == "F" ? "FAIL" : nil)
            let outcome = refundStatusOutcome(
                status: refundStatus, refundId: notification.refundId, amount: notification.refundAmount?.minorUnits,
                failureCode: status == "F" ? code : nil)
            return AntomNotificationContent(events: [
                NotificationEvent(
                    subject: .refund, reference: notification.refundRequestId,
                    providerPaymentId: notification.refundId, outcome: outcome)
            ])
        case "VAULTING_RESULT":
            return AntomNotificationContent(
                credentials: vaultingNotificationEvent(notification, status: status, code: code)
                    .map { [$0] } ?? [])
        default:
            return AntomNotificationContent()
        }
    }

    /// A notifyPayment's outcome: `S` → succeeded (`PAYMENT_RESULT`) or pending (`PAYMENT_PENDING`),
    /// `F` → declined with Antom's code, anything else → unknown.
    static func paymentNotificationOutcome(
        _ notification: AntomNotification, status: String?, code: String?, pendingOnly: Bool
    ) -> Outcome {
        let amount = notification.paymentAmount?.minorUnits
        switch status {
        case "S" where pendingOnly:
            return Outcome(
                kind: .pending, providerPaymentId: notification.paymentId, providerStatus: "PAYMENT_PENDING",
                amount: amount)
        case "S":
            // A payment result names no captured amount: for a card authorised for manual capture it only
            // confirms the authorisation (Switchyard knows the capture mode), for the rest it is the payment.
            return Outcome(
                kind: .succeeded, providerPaymentId: notification.paymentId, providerStatus: "SUCCESS", amount: amount)
        case "F":
            let code = code ?? "PROCESS_FAIL"
            return Outcome(
                kind: .declined, providerPaymentId: notification.paymentId, providerStatus: code, amount: amount,
                code: code, message: declineMessage(code, call: .pay), retryable: false)
        default:
            var outcome = Outcome.unknown(
                code: code ?? "unrecognised_result", message: "Antom does not know the outcome yet")
            outcome.providerPaymentId = notification.paymentId
            return outcome
        }
    }

    /// A notifyAuthorization: `TOKEN_CREATED` → a wallet agreement created, `TOKEN_CANCELED` → revoked;
    /// nil for `AUTHCODE_CREATED`, other types, or a created token without an access token.
    static func authorizationEvent(_ notification: AntomNotification, type: String) -> CredentialEvent? {
        let token = notification.accessToken.flatMap { $0.isEmpty ? nil : $0 }
        let methodType = notification.paymentMethodType.flatMap { $0.isEmpty ? nil : $0 }
        switch type.uppercased() {
        case "TOKEN_CREATED":
            guard let token else { return nil }
            let account = notification.userLoginId.flatMap(maskLogin)
            return CredentialEvent(
                kind: .created, correlationId: notification.authState, credentialKind: walletAgreementKind,
                token: token, paymentMethodType: methodType,
                display: account.map { CredentialDisplay(account: $0) })
        case "TOKEN_CANCELED":
            let reason = notification.reason.map { String($0.prefix(256)) }
            return CredentialEvent(
                kind: .revoked, correlationId: notification.authState, credentialKind: walletAgreementKind,
                token: token, paymentMethodType: methodType, code: "TOKEN_CANCELED",
                message: reason.flatMap { $0.isEmpty ? nil : $0 } ?? "the wallet agreement was cancelled")
        default:
            return nil
        }
    }

    /// A notifyVaulting: `S` → the card vaulted (nil without a card token), `F` → failed, `U` → pending.
    static func vaultingNotificationEvent(_ notification: AntomNotification, status: String?, code: String?)
        -> CredentialEvent?
    {
        let correlation = notification.vaultingRequestId
        switch status {
        case "S":
            return cardCreated(notification.paymentMethodDetail?.card, correlationId: correlation)
        case "F":
            return vaultingFailed(correlationId: correlation, code: code ?? "VAULTING_FAIL")
        default:
            return CredentialEvent(
                kind: .pending, correlationId: correlation, credentialKind: cardKind, paymentMethodType: "CARD")
        }
    }

    /// A wallet login id (e-mail or phone) masked for display; an id Antom already masked is kept.
    static func maskLogin(_ login: String) -> String? {
        let login = login.trimmingBlanks()
        guard !login.isEmpty else { return nil }
        if login.contains("*") { return login }
        if let at = login.firstIndex(of: "@"), at > login.startIndex {
            return String(login[login.startIndex]) + "***" + login[at...]
        }
        let characters = Array(login)
        switch characters.count {
        case ...4: return String(repeating: "*", count: characters.count)
        case ...8:
            return String(characters.prefix(1)) + String(repeating: "*", count: characters.count - 3)
                + String(characters.suffix(2))
        default:
            return String(characters.prefix(3)) + String(repeating: "*", count: characters.count - 7)
                + String(characters.suffix(4))
        }
    }
}
