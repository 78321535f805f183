import Foundation
import SwitchyardCrypto

extension AntomState {
    /// `createVaultingSession`: a card-binding session waiting (PROCESSING) for the card.
    func createVaultingSession(
        clientId: String, vaultingRequestId: String, notifyURL: String, canonical: String, baseURL: String
    ) -> AntomReply {
        idempotent(
            scope: "vaulting", clientId: clientId, requestId: vaultingRequestId, endpoint: "createVaultingSession",
            canonical: canonical
        ) {
            let created = now
            let session = VaultingSession(
                id: randomHex(16), clientId: clientId, vaultingRequestId: vaultingRequestId, notifyURL: notifyURL,
                expiresAt: created.addingTimeInterval(configuration.vaultingSessionLifetime), createdAt: created)
            vaultingSessions[session.id] = session
            vaultingIdsByRequest[Self.key(clientId, vaultingRequestId)] = session.id
            let opaque = AntomJSON.encode(["vaultingSessionId": session.id, "nonce": randomHex(8)])
            return AntomReply(
                AntomVaultingSessionResponse(
                    result: .success, vaultingSessionData: Base64.encode(opaque),
                    vaultingSessionId: session.id, vaultingSessionExpiryTime: AntomTime.format(session.expiresAt),
                    normalUrl: baseURL + "/_sandbox/antom/vaulting/" + session.id))
        }
    }

    /// `inquireVaulting`.
    func inquireVaulting(clientId: String, vaultingRequestId: String, baseURL: String) -> AntomReply {
        guard let id = vaultingIdsByRequest[Self.key(clientId, vaultingRequestId)], var session = vaultingSessions[id]
        else { return AntomReply(result: .vaultingNotExist) }
        if session.status == "PROCESSING" && session.expiresAt <= now {
            session.status = "FAIL"
            session.resultCode = "VAULTING_SESSION_EXPIRED"
            session.resultMessage = "the vaulting session expired"
            vaultingSessions[id] = session
        }
        let card = session.cardToken.flatMap { cards[$0] }
        return AntomReply(
            AntomVaultingInquiryResponse(
                result: .success, vaultingRequestId: vaultingRequestId, vaultingStatus: session.status,
                vaultingResultCode: session.resultCode, vaultingResultMessage: session.resultMessage,
                paymentMethodDetail: card.map { AntomPaymentMethodDetail(card: $0.detail) },
                normalUrl: session.status == "PROCESSING" ? baseURL + "/_sandbox/antom/vaulting/" + id : nil))
    }

    /// Plays the card-binding page: validates the card, then vaults it (or fails for the failure card).
    func completeVaulting(id: String, card input: AntomCardInput) throws(AntomSandboxError) -> (
        AntomVaultingCompletion, [AntomEvent]
    ) {
        guard var session = vaultingSessions[id] else { throw .vaultingNotFound }
        guard session.status == "PROCESSING" else { throw .sessionCompleted }
        guard session.expiresAt > now else { throw .sessionExpired }
        let (month, year) = try Self.validate(input)
        let pan = input.cardNumber
        let failure = pan == AntomTestCard.failure
        var vaulted: VaultedCard?
        if failure && !configuration.failureCardVaults {
            session.status = "FAIL"
            session.resultCode = AntomResult.riskReject.resultCode
            session.resultMessage = "the card could not be verified"
        } else {
            let card = VaultedCard(
                token: "ALIPAY" + Base64.encode(SecureRandom.bytes(24)), clientId: session.clientId,
                maskedCardNo: String(repeating: "*", count: pan.count - 4) + pan.suffix(4), brand: Self.brand(of: pan),
                expiryMonth: month, expiryYear: year, lastFour: String(pan.suffix(4)), bin: String(pan.prefix(6)),
                fingerprint: Hex.encode(SHA2.sha256(Array("switchyard-antom-sandbox:\(pan)".utf8))),
                failureCard: failure)
            cards[card.token] = card
            session.status = "SUCCESS"
            session.resultCode = AntomResult.success.resultCode
            session.resultMessage = AntomResult.success.resultMessage
            session.cardToken = card.token
            vaulted = card
        }
        vaultingSessions[id] = session
        let completion = AntomVaultingCompletion(
            vaultingRequestId: session.vaultingRequestId, vaultingSessionId: id, vaultingStatus: session.status,
            resultCode: session.resultCode, cardToken: vaulted?.token, maskedCardNo: vaulted?.maskedCardNo,
            brand: vaulted?.brand)
        return (completion, [.vaulting(session, vaulted)])
    }

    /// The card brand from the card number's prefix.
    static func brand(of pan: String) -> String {
        let two = Int(pan.prefix(2)) ?? 0
        let four = Int(pan.prefix(4)) ?? 0
        switch true {
        case pan.hasPrefix("4"): return "VISA"
        case (51...55).contains(two), (2221...2720).contains(four): return "MASTERCARD"
        case two == 34 || two == 37: return "AMEX"
        case two == 35: return "JCB"
        case two == 62: return "CUP"
        case pan.hasPrefix("6011") || two == 65: return "DISCOVER"
        case two == 36 || (3000...3059).contains(four): return "DINERS"
        case pan.hasPrefix("9490"): return "HYUNDAI"
        default: return "UNKNOWN"
        }
    }

    /// Checks the card number (12–19 digits, Luhn) and expiry; returns `MM` and `YY`.
    private static func validate(_ card: AntomCardInput) throws(AntomSandboxError) -> (String, String) {
        let pan = card.cardNumber
        guard SandboxCard.isValidNumber(pan) else {
            throw .cardInvalid("cardNumber is not a valid card number")
        }
        guard let month = Int(card.expiryMonth), (1...12).contains(month) else {
            throw .cardInvalid("expiryMonth must be 01 to 12")
        }
        let yearText = card.expiryYear
        guard yearText.count == 2 || yearText.count == 4, let year = Int(yearText) else {
            throw .cardInvalid("expiryYear must be YY or YYYY")
        }
        if let cvv = card.cvv, !(3...4).contains(cvv.count) || !cvv.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw .cardInvalid("cvv must be 3 or 4 digits")
        }
        return (String(format: "%02d", month), String(format: "%02d", year % 100))
    }
}
