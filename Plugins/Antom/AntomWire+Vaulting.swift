#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `vaults/createVaultingSession` body.
struct AntomCreateVaultingSessionRequest: Codable, Sendable, Equatable {
    var paymentMethodType: String
    var vaultingRequestId: String
    var vaultingNotificationUrl: String
    var redirectUrl: String
    var merchantRegion: String?
}

/// `vaults/createVaultingSession` answer: what the app's AMSVaulting SDK needs.
struct AntomCreateVaultingSessionResponse: Codable, Sendable, Equatable {
    var result: AntomResult?
    var vaultingSessionData: String?
    var vaultingSessionId: String?
    var vaultingSessionExpiryTime: String?
    var normalUrl: String?
}

/// `vaults/inquireVaulting` body.
struct AntomInquireVaultingRequest: Codable, Sendable, Equatable {
    var vaultingRequestId: String
}

/// `paymentMethodDetail.card`: the vaulted card (`expiryYear` is `YY`, `expiryMonth` is `MM`).
struct AntomCard: Codable, Sendable, Equatable {
    var cardToken: String?
    var maskedCardNo: String?
    var brand: String?
    var expiryYear: String?
    var expiryMonth: String?
    var lastFour: String?
    var fingerprint: String?

    init(
        cardToken: String? = nil, maskedCardNo: String? = nil, brand: String? = nil, expiryYear: String? = nil,
        expiryMonth: String? = nil, lastFour: String? = nil, fingerprint: String? = nil
    ) {
        self.cardToken = cardToken
        self.maskedCardNo = maskedCardNo
        self.brand = brand
        self.expiryYear = expiryYear
        self.expiryMonth = expiryMonth
        self.lastFour = lastFour
        self.fingerprint = fingerprint
    }

    private enum CodingKeys: String, CodingKey {
        case cardToken, maskedCardNo, brand, expiryYear, expiryMonth, lastFour, fingerprint
    }

    /// Decodes a card whose scalar fields may arrive as strings or numbers.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        cardToken = c.lenientString(forKey: .cardToken)
        maskedCardNo = c.lenientString(forKey: .maskedCardNo)
        brand = c.lenientString(forKey: .brand)
        expiryYear = c.lenientString(forKey: .expiryYear)
        expiryMonth = c.lenientString(forKey: .expiryMonth)
        lastFour = c.lenientString(forKey: .lastFour)
        fingerprint = c.lenientString(forKey: .fingerprint)
    }
}

/// `paymentMethodDetail`.
struct AntomPaymentMethodDetail: Codable, Sendable, Equatable {
    var paymentMethodType: String?
    var card: AntomCard?
}

/// `vaults/inquireVaulting` answer.
struct AntomInquireVaultingResponse: Codable, Sendable, Equatable {
    var result: AntomResult?
    var vaultingRequestId: String?
    var vaultingStatus: String?
    var paymentMethodDetail: AntomPaymentMethodDetail?
    var vaultingResultCode: String?
    var vaultingResultMessage: String?
}
