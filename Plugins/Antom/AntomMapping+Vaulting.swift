#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension AntomMapping {
    /// The pending outcome of `createVaultingSession`: what AMSVaulting needs, until the session expires.
    static func vaultingSessionOutcome(_ response: AntomCreateVaultingSessionResponse) -> Outcome {
        guard let sessionData = response.vaultingSessionData, !sessionData.isEmpty else {
            return Outcome.unknown(code: "unparsable_response", message: "Antom returned no vaulting session data")
        }
        var data: [String: JSONValue] = ["vaultingSessionData": .string(sessionData)]
        data["vaultingSessionId"] = response.vaultingSessionId.map(JSONValue.string)
        data["vaultingSessionExpiryTime"] = response.vaultingSessionExpiryTime.map(JSONValue.string)
        data["normalUrl"] = response.normalUrl.map(JSONValue.string)
        let action = NextAction(
            type: vaultingSessionActionType, data: data, expiresAt: parseTime(response.vaultingSessionExpiryTime))
        return Outcome(kind: .pending, providerStatus: "SESSION_CREATED", nextAction: action)
    }

    /// What an inquiry says about a vaulting: `SUCCESS` → created (with the card), `FAIL` → failed,
    /// `PROCESSING` → pending; nil for another status or a success without a card token.
    static func vaultingEvent(_ response: AntomInquireVaultingResponse, vaultingId: String) -> CredentialEvent? {
        let correlation = response.vaultingRequestId ?? vaultingId
        switch response.vaultingStatus?.trimmingBlanks().uppercased() {
        case "SUCCESS":
            return cardCreated(response.paymentMethodDetail?.card, correlationId: correlation)
        case "FAIL":
            let code = ProviderText.safeCode(response.vaultingResultCode) ?? "VAULTING_FAIL"
            return vaultingFailed(correlationId: correlation, code: code)
        case "PROCESSING":
            return CredentialEvent(
                kind: .pending, correlationId: correlation, credentialKind: cardKind, paymentMethodType: "CARD")
        default:
            return nil
        }
    }

    /// A vaulted card as a `created` event; nil without a card token.
    static func cardCreated(_ card: AntomCard?, correlationId: String?) -> CredentialEvent? {
        guard let card, let token = card.cardToken, !token.isEmpty else { return nil }
        return CredentialEvent(
            kind: .created, correlationId: correlationId, credentialKind: cardKind, token: token,
            paymentMethodType: "CARD", display: cardDisplay(card))
    }

    /// A failed vaulting.
    static func vaultingFailed(correlationId: String?, code: String) -> CredentialEvent {
        CredentialEvent(
            kind: .failed, correlationId: correlationId, credentialKind: cardKind, paymentMethodType: "CARD",
            code: code, message: "Antom reports the card was not vaulted (\(code))")
    }

    /// What may be shown about a card: brand, last four digits, Antom's masked number, and the expiry with a
    /// four-digit year.
    static func cardDisplay(_ card: AntomCard) -> CredentialDisplay {
        let masked = card.maskedCardNo.flatMap { $0.isEmpty ? nil : $0 }
        let lastFour =
            card.lastFour.flatMap(ProviderText.digits)
            ?? masked.flatMap { text -> String? in
                let tail = String(text.filter(\.isNumber).suffix(4))
                return tail.count == 4 ? tail : nil
            }
        return CredentialDisplay(
            brand: card.brand.flatMap { $0.isEmpty ? nil : $0.uppercased() },
            last4: lastFour,
            masked: masked,
            expiryMonth: card.expiryMonth.flatMap(ProviderText.digits).flatMap { Int($0) }.flatMap {
                (1...12).contains($0) ? $0 : nil
            },
            expiryYear: card.expiryYear.flatMap(ProviderText.digits).flatMap(fourDigitYear)
        )
    }

    /// `YY` → `20YY`; a four-digit year as it is.
    static func fourDigitYear(_ text: String) -> Int? {
        guard let value = Int(text) else { return nil }
        switch text.count {
        case 1, 2: return 2000 + value
        case 4: return value
        default: return nil
        }
    }
}
