#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension SipsMapping {
    /// What `getWalletData` says about a vaulting: the wallet's first card → created (token
    /// `<merchantWalletId>:<paymentMeanId>`); no card yet or `25` (no such wallet yet) → pending; any other
    /// answer → a failure outcome.
    static func walletSyncResult(
        _ exchange: ExchangeResult<SipsWalletDataResponse>, vaultingId: String, merchantWalletId: String
    ) -> VaultingSyncResult {
        switch exchange {
        case .outcome(let outcome):
            return VaultingSyncResult(event: nil, failure: outcome)
        case .success(let response):
            if ProviderText.safeCode(response.walletResponseCode) == "25" {
                return VaultingSyncResult(event: walletPending(vaultingId))
            }
            let verdict = classify(
                code: response.walletResponseCode, acquirer: nil, errorField: response.errorFieldName,
                service: .getWalletData)
            switch verdict {
            case .accepted:
                let card = (response.walletPaymentMeanDataList ?? []).first { mean in
                    mean.paymentMeanId.map { !$0.isEmpty && $0.unicodeScalars.allSatisfy(ProviderText.isAlphanumeric) }
                        ?? false
                }
                guard let card, let meanId = card.paymentMeanId else {
                    return VaultingSyncResult(event: walletPending(vaultingId))
                }
                return VaultingSyncResult(
                    event: CredentialEvent(
                        kind: .created, correlationId: vaultingId, credentialKind: cardKind,
                        token: walletToken(merchantWalletId: merchantWalletId, paymentMeanId: meanId),
                        paymentMethodType: "CARD", display: cardDisplay(card)))
            case .duplicate:
                return VaultingSyncResult(event: nil, failure: duplicateOutcome(.getWalletData))
            case .outcome(let outcome):
                return VaultingSyncResult(event: nil, failure: outcome)
            }
        }
    }

    /// What `deletePaymentMean` says about a revocation: `00` → revoked; `25` (no such wallet or card) →
    /// revoked too, since Sips holds nothing usable under the token; any other answer → its failure class
    /// (`94` → unknown).
    static func revocationResult(_ exchange: ExchangeResult<SipsDeletePaymentMeanResponse>) -> RevokeCredentialResult {
        switch exchange {
        case .outcome(let outcome):
            return RevokeCredentialResult(failure: outcome)
        case .success(let response):
            if ProviderText.safeCode(response.walletResponseCode) == "25" {
                return RevokeCredentialResult(
                    status: .revoked, code: "25", message: "Worldline Sips no longer holds this wallet card")
            }
            let verdict = classify(
                code: response.walletResponseCode, acquirer: nil, errorField: response.errorFieldName,
                service: .deletePaymentMean)
            switch verdict {
            case .accepted: return .revoked
            case .duplicate: return RevokeCredentialResult(failure: duplicateOutcome(.deletePaymentMean))
            case .outcome(let outcome): return RevokeCredentialResult(failure: outcome)
            }
        }
    }

    /// A vaulting the app has not finished.
    static func walletPending(_ vaultingId: String) -> CredentialEvent {
        CredentialEvent(kind: .pending, correlationId: vaultingId, credentialKind: cardKind, paymentMethodType: "CARD")
    }

    /// What may be shown about a wallet card: brand, Sips' masked number, the last four digits when the mask
    /// shows them, and the expiry from `panExpiryDate` (`yyyyMM`).
    static func cardDisplay(_ card: SipsWalletPaymentMean) -> CredentialDisplay {
        let masked = card.maskedPan?.trimmingBlanks()
        let tail = masked.map { String($0.suffix(4)) }
        let expiry = card.panExpiryDate?.trimmingBlanks() ?? ""
        var month: Int?
        var year: Int?
        if expiry.count == 6, expiry.allSatisfy({ $0.isASCII && $0.isNumber }) {
            year = Int(expiry.prefix(4))
            month = Int(expiry.suffix(2)).flatMap { (1...12).contains($0) ? $0 : nil }
        }
        return CredentialDisplay(
            brand: card.paymentMeanBrand.flatMap { $0.isEmpty ? nil : $0.uppercased() },
            last4: tail.flatMap { $0.count == 4 && $0.allSatisfy({ $0.isASCII && $0.isNumber }) ? $0 : nil },
            masked: masked.flatMap { $0.isEmpty ? nil : $0 },
            expiryMonth: month,
            expiryYear: month == nil ? nil : year
        )
    }
}
