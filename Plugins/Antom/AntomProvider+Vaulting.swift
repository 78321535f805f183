#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension AntomProvider {
    /// `vaults/createVaultingSession` for the app's AMSVaulting SDK: pending with an `antom_vaulting_session`
    /// next action, or the failure's class. The vaulting id is the `vaultingRequestId` that notifyVaulting
    /// and `syncVaulting` echo.
    public func vaultingSession(_ request: VaultingSessionRequest, account: AccountContext) async throws
        -> VaultingSessionResult
    {
        let body = try AntomMapping.vaultingSessionRequest(request, account: account)
        let exchange = try await exchange(
            .createVaultingSession, body: body, account: account, as: AntomCreateVaultingSessionResponse.self)
        switch exchange {
        case .outcome(let outcome): return VaultingSessionResult(outcome: outcome)
        case .success(let response):
            return VaultingSessionResult(outcome: AntomMapping.vaultingSessionOutcome(response))
        }
    }

    /// `vaults/inquireVaulting`: the vaulting's state as a credential event. `F VAULTING_NOT_EXIST` is a
    /// failed vaulting; any other failure of the inquiry is reported as `failure`.
    public func syncVaulting(_ request: VaultingSyncRequest, account: AccountContext) async throws
        -> VaultingSyncResult
    {
        let body = AntomInquireVaultingRequest(vaultingRequestId: request.vaultingId)
        let exchange = try await exchange(
            .inquireVaulting, body: body, account: account, as: AntomInquireVaultingResponse.self)
        switch exchange {
        case .outcome(let outcome):
            if outcome.kind == .declined, outcome.code == "VAULTING_NOT_EXIST" {
                return VaultingSyncResult(
                    event: AntomMapping.vaultingFailed(correlationId: request.vaultingId, code: "VAULTING_NOT_EXIST"))
            }
            return VaultingSyncResult(event: nil, failure: outcome)
        case .success(let response):
            if let event = AntomMapping.vaultingEvent(response, vaultingId: request.vaultingId) {
                return VaultingSyncResult(event: event)
            }
            return VaultingSyncResult(
                event: nil,
                failure: Outcome.unknown(
                    code: "unrecognised_status", message: "Antom's vaulting status is not recognised"))
        }
    }
}
