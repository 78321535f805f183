import Foundation
import Logging
import ProviderKit

/// Stored customer credentials: vaulting sessions, provider reports, listing and revoking, and paying with one.
extension PaymentService {
    /// A customer's credentials (never their tokens).
    public func paymentMethods(tenant: UUID, customerId: String) async throws -> [StoredPaymentMethod] {
        try await credentials.credentials(tenant: tenant, customerId: customerId)
    }

    /// A page of a customer's credentials, newest first (never their tokens); `status` is one of
    /// ``StoredPaymentMethod/Status``.
    public func paymentMethods(tenant: UUID, customerId: String, page: PageRequest) async throws
        -> Page<StoredPaymentMethod>
    {
        page.page(try await credentials.credentials(tenant: tenant, customerId: customerId, page: page))
    }

    /// One of a customer's credentials (never its token); with `livemode`, `404` for one of the other mode.
    public func paymentMethod(tenant: UUID, customerId: String, id: String, livemode: Bool? = nil) async throws
        -> StoredPaymentMethod
    {
        try await owned(tenant: tenant, customerId: customerId, id: id, livemode: livemode).withoutToken
    }

    /// Revokes a credential: at the provider first when it is active and its plugin offers revocation, then
    /// here, whatever the provider answered (a failed or unknown provider call never keeps it usable). What the
    /// provider did is recorded in the failure message. Revoking an already revoked credential changes and
    /// calls nothing. With `livemode`, `404` for a credential of the other mode.
    public func revokePaymentMethod(tenant: UUID, customerId: String, id: String, livemode: Bool? = nil)
        async throws -> StoredPaymentMethod
    {
        let found = try await owned(tenant: tenant, customerId: customerId, id: id, livemode: livemode)
        guard found.status != .revoked else { return found.withoutToken }
        let provider = await revokeAtProvider(found)
        let credential = try await transitionCredential(found, with: .merchantRevoked(provider: provider))
        var metadata: Logger.Metadata = [
            "tenant.id": "\(tenant)", "payment_method.id": "\(credential.id)",
            "provider.account": "\(credential.accountId)",
            "revocation.provider": "\(provider?.status.rawValue ?? "not_asked")",
        ]
        if let code = provider?.code { metadata["revocation.code"] = "\(code)" }
        let failed: Set<RevokeCredentialResult.Status> = [.declined, .notSent, .unknown, .authExpired]
        let level: Logger.Level = provider.map { failed.contains($0.status) } == true ? .warning : .info
        logger.log(level: level, "payment method revoked", metadata: metadata)
        return credential.withoutToken
    }

    /// Asks the provider to revoke an active credential; nil when it is not asked (the credential is not
    /// active or has no token: the provider holds nothing usable). The gateway answers `notSupported`,
    /// calling nothing, when the plugin offers no revocation.
    private func revokeAtProvider(_ credential: StoredPaymentMethod) async -> RevokeCredentialResult? {
        guard credential.status == .active, let token = credential.token, !token.isEmpty else { return nil }
        let account: ProviderAccount?
        do {
            account = try await configuration.account(tenant: credential.tenantId, id: credential.accountId)
        } catch {
            return RevokeCredentialResult(
                status: .notSent, code: "account_unavailable", message: "the provider account could not be read")
        }
        guard let account else {
            return RevokeCredentialResult(
                status: .notSent, code: "account_unavailable", message: "the provider account no longer exists")
        }
        return await gateway.revokeCredential(
            RevokeCredentialRequest(
                credential: providerCredential(credential), customerId: credential.customerId,
                operationId: ids.make("rvk")),
            account: account)
    }

    /// The failure message of a credential the merchant revoked: what the provider did (never a token).
    static func revocationMessage(_ result: RevokeCredentialResult?) -> String {
        let code = result?.code.map { " (\($0))" } ?? ""
        switch result?.status {
        case nil:
            return "revoked by the merchant; the provider was not asked: the credential was not active"
        case .revoked:
            return "revoked by the merchant; the provider revoked it too"
        case .notSupported:
            return "revoked by the merchant in Switchyard only; the provider does not support revocation"
        case .declined:
            return "revoked by the merchant in Switchyard; the provider refused to revoke it\(code)"
        case .notSent, .authExpired:
            return "revoked by the merchant in Switchyard; the provider could not be asked to revoke it\(code)"
        case .unknown:
            return "revoked by the merchant in Switchyard; whether the provider revoked it is not known\(code)"
        }
    }

    /// Starts a card-vaulting session for the customer's app at `accountId`, or at the tenant's first enabled
    /// account whose plugin offers vaulting; the credential keeps the merchant's `metadata` and `description`.
    /// With `livemode`, only an account of that mode is used (`accountId` of the other mode is unknown).
    public func createVaultingSession(
        tenant: UUID, customerId: String, accountId: UUID?, returnURL: String?, country: String?,
        metadata: Metadata = .empty, description: String? = nil, livemode: Bool? = nil
    ) async throws -> StoredPaymentMethod {
        guard !customerId.isEmpty, customerId.count <= 128 else {
            throw CoreError(.invalidCustomer, "customer must be 1 to 128 characters")
        }
        try ResourceDescription.validate(description)
        let account = try await vaultingAccount(tenant: tenant, accountId: accountId, livemode: livemode)
        // The credential's own id is the provider's vaulting request id, echoed by its notification.
        let id = ids.make("pm")
        var credential = StoredPaymentMethod(
            id: id, tenantId: tenant, customerId: customerId, accountId: account.id, pluginId: account.pluginId,
            kind: "card", correlationId: id, createdAt: clock())
        credential.metadata = metadata
        credential.merchantDescription = description
        credential.livemode = account.livemode
        try await credentials.saveCredential(credential)
        let outcome = await gateway.vaultingSession(
            VaultingSessionRequest(
                vaultingId: credential.id, customerId: customerId, returnURL: returnURL, country: country),
            account: account)
        var judged = credential
        let actions = StoredCredentialMachine.apply(.sessionRequested(outcome), to: &judged, at: clock())
        let answered = try await transitionCredential(credential, with: .sessionRequested(outcome))
        if actions.contains(.reportUnreachable) {
            throw CoreError(
                .providerUnreachable, "the provider could not be reached; no vaulting session was created")
        }
        return answered.withoutToken
    }

    /// Asks the provider what became of a pending vaulting; with `livemode`, `404` for one of the other mode.
    public func syncPaymentMethod(tenant: UUID, customerId: String, id: String, livemode: Bool? = nil)
        async throws -> StoredPaymentMethod
    {
        let credential = try await owned(tenant: tenant, customerId: customerId, id: id, livemode: livemode)
        guard credential.status == .pending else { return credential.withoutToken }
        guard let account = try await configuration.account(tenant: tenant, id: credential.accountId) else {
            throw CoreError.notFound("provider account")
        }
        let result = await gateway.syncVaulting(
            VaultingSyncRequest(vaultingId: credential.correlationId), account: account)
        guard let event = result.event else { return credential.withoutToken }
        return try await transitionCredential(credential, with: .providerReported(event)).withoutToken
    }

    /// Applies credential events of an account's verified notification.
    func apply(_ events: [CredentialEvent], account: ProviderAccount) async throws {
        for event in events {
            var found: StoredPaymentMethod?
            if let correlation = event.correlationId, !correlation.isEmpty {
                found = try await credentials.credential(
                    tenant: account.tenantId, accountId: account.id, correlationId: correlation)
            }
            if found == nil, let token = event.token, !token.isEmpty {
                found = try await credentials.credential(tenant: account.tenantId, accountId: account.id, token: token)
            }
            guard let credential = found else {
                logger.notice(
                    "credential notification for an unknown credential kept",
                    metadata: ["provider.account": "\(account.id)", "credential.event": "\(event.kind.rawValue)"])
                continue
            }
            let updated = try await transitionCredential(credential, with: .providerReported(event))
            guard updated.status != credential.status else { continue }
            logger.info(
                "payment method updated",
                metadata: [
                    "tenant.id": "\(account.tenantId)", "payment_method.id": "\(updated.id)",
                    "payment_method.status": "\(updated.status.rawValue)",
                ])
        }
    }

    /// The credential a new payment pays with: the tenant's, the customer's (when named), usable now.
    func usableCredential(tenant: UUID, id: String, customerId: String?, livemode: Bool) async throws
        -> StoredPaymentMethod
    {
        guard let credential = try await credentials.credential(tenant: tenant, id: id),
            customerId == nil || credential.customerId == customerId, credential.livemode == livemode
        else {
            throw CoreError(.unknownPaymentMethod, "no such payment method for this customer")
        }
        guard credential.isUsable(at: clock()) else {
            throw CoreError(
                .paymentMethodUnusable, "the payment method is \(credential.status.rawValue) and cannot pay")
        }
        return credential
    }

    /// Records the credential a payment's attempt at `account` asks the provider to set up; the provider
    /// echoes its correlation id when it reports the token.
    func pendingCredential(
        tenant: UUID, customerId: String, account: ProviderAccount, method: String, paymentId: String
    ) async throws -> StoredPaymentMethod {
        var pending = StoredPaymentMethod(
            id: ids.make("pm"), tenantId: tenant, customerId: customerId, accountId: account.id,
            pluginId: account.pluginId, kind: "wallet_agreement", correlationId: ids.make("as"),
            originPaymentId: paymentId, createdAt: clock())
        pending.paymentMethodType = method.uppercased()
        pending.livemode = account.livemode
        try await credentials.saveCredential(pending)
        return pending
    }

    /// The plugin's view of a credential.
    func providerCredential(_ credential: StoredPaymentMethod) -> StoredCredential {
        StoredCredential(
            id: credential.id, kind: credential.kind, token: credential.token ?? "",
            paymentMethodType: credential.paymentMethodType)
    }

    /// Applies `event` to the stored credential under its row lock (see ``StoredCredentialMachine``), storing
    /// it when it changed; returns the credential as it now stands (`credential` when it is gone).
    func transitionCredential(_ credential: StoredPaymentMethod, with event: StoredCredentialMachine.Event) async throws
        -> StoredPaymentMethod
    {
        let time = clock()
        let updated = try await credentials.updateCredential(tenant: credential.tenantId, id: credential.id) {
            stored in
            let before = stored
            _ = StoredCredentialMachine.apply(event, to: &stored, at: time)
            return stored != before
        }
        return updated ?? credential
    }

    private func owned(tenant: UUID, customerId: String, id: String, livemode: Bool?) async throws
        -> StoredPaymentMethod
    {
        guard let credential = try await credentials.credential(tenant: tenant, id: id),
            credential.customerId == customerId, livemode.map({ $0 == credential.livemode }) ?? true
        else { throw CoreError.notFound("payment method") }
        return credential
    }

    private func vaultingAccount(tenant: UUID, accountId: UUID?, livemode: Bool?) async throws -> ProviderAccount {
        let ofMode = { (account: ProviderAccount) in livemode.map { $0 == account.livemode } ?? true }
        if let accountId {
            guard let account = try await configuration.account(tenant: tenant, id: accountId), ofMode(account) else {
                throw CoreError(.unknownAccount, "no such provider account")
            }
            guard account.enabled,
                await gateway.manifest(pluginId: account.pluginId)?.flows.contains(.vaultingSession) == true
            else {
                throw CoreError(.vaultingNotSupported, "this provider account cannot vault cards")
            }
            return account
        }
        for account in try await configuration.accounts(tenant: tenant) where account.enabled && ofMode(account) {
            if await gateway.manifest(pluginId: account.pluginId)?.flows.contains(.vaultingSession) == true {
                return account
            }
        }
        let mode = livemode.map { " \(Livemode.name($0))" } ?? ""
        throw CoreError(.vaultingNotSupported, "no\(mode) provider account of this tenant can vault cards")
    }
}

extension StoredPaymentMethod {
    /// The same credential without its token, for anything that leaves the service.
    var withoutToken: StoredPaymentMethod {
        var copy = self
        copy.token = nil
        return copy
    }
}
