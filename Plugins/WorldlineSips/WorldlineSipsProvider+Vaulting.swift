#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension WorldlineSipsProvider {
    /// `walletInApp/walletInitialize` with `sdkOperationName` `ADDCARD` for a wallet of its own (the vaulting id
    /// without non-alphanumerics): pending with a `sips_inapp_wallet` next action (`redirectionData`,
    /// `redirectionUrl`, `redirectionVersion`, `publicKeyValue`, `sdkOperationName`, `merchantWalletId`) until
    /// the announced session lifetime ends, or the failure's class.
    ///
    /// - Throws: `bad_request` (nothing sent) for a vaulting id without letters or digits.
    public func vaultingSession(_ request: VaultingSessionRequest, account: AccountContext) async throws
        -> VaultingSessionResult
    {
        let keys = try keys(of: account)
        let wallet = try SipsMapping.merchantWalletId(vaultingId: request.vaultingId)
        let body = SipsMapping.walletInitializeRequest(merchantWalletId: wallet, keys: keys, account: account)
        let expiresAt = sessionExpiry(account)
        let exchange = try await exchange(
            .walletInitialize, body: body, keys: keys, account: account, as: SipsInitializeResponse.self)
        switch exchange {
        case .outcome(let outcome):
            return VaultingSessionResult(outcome: outcome)
        case .success(let response):
            switch SipsMapping.classify(response, service: .walletInitialize) {
            case .accepted:
                let extra: [String: JSONValue] = [
                    "sdkOperationName": .string(body.sdkOperationName), "merchantWalletId": .string(wallet),
                ]
                return VaultingSessionResult(
                    outcome: SipsMapping.initializeOutcome(
                        response, actionType: SipsMapping.walletActionType, extra: extra,
                        expiresAt: expiresAt, providerPaymentId: nil))
            case .duplicate:
                return VaultingSessionResult(outcome: SipsMapping.duplicateOutcome(.walletInitialize))
            case .outcome(let outcome):
                return VaultingSessionResult(outcome: outcome)
            }
        }
    }

    /// `wallet/getWalletData` for the vaulting's wallet: its first card as a `created` credential (token
    /// `<merchantWalletId>:<paymentMeanId>`), `pending` while the wallet is empty or unknown (`25`), or the
    /// inquiry's failure.
    public func syncVaulting(_ request: VaultingSyncRequest, account: AccountContext) async throws
        -> VaultingSyncResult
    {
        let keys = try keys(of: account)
        let wallet = try SipsMapping.merchantWalletId(vaultingId: request.vaultingId)
        let body = SipsMapping.walletDataRequest(merchantWalletId: wallet, keys: keys, account: account)
        let exchange = try await exchange(
            .getWalletData, body: body, keys: keys, account: account, as: SipsWalletDataResponse.self)
        return SipsMapping.walletSyncResult(exchange, vaultingId: request.vaultingId, merchantWalletId: wallet)
    }

    /// `wallet/deletePaymentMean` for a wallet card (token `<merchantWalletId>:<paymentMeanId>`): revoked when
    /// Sips deleted it or no longer holds it (`25`), else the failure's class.
    ///
    /// - Throws: `bad_request` (nothing sent) for a credential that is not a Sips wallet card.
    public func revokeCredential(_ request: RevokeCredentialRequest, account: AccountContext) async throws
        -> RevokeCredentialResult
    {
        let keys = try keys(of: account)
        let card = try SipsMapping.walletCard(request.credential)
        let body = SipsMapping.deletePaymentMeanRequest(card, keys: keys, account: account)
        let exchange = try await exchange(
            .deletePaymentMean, body: body, keys: keys, account: account, as: SipsDeletePaymentMeanResponse.self)
        return SipsMapping.revocationResult(exchange)
    }
}
