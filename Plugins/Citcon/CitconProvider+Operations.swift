#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension CitconProvider {
    /// `POST /v1/captures` with our operation id as the capture reference.
    public func capture(_ request: CaptureRequest, account: AccountContext) async throws -> Outcome {
        guard let token = account.accessTokenSecret else { return .authExpired }
        let chargeId = try Self.chargeId(request.payment)
        let body = try ProviderJSON.standard.encode(CitconMapping.captureRequest(request, chargeId: chargeId))
        return await operation(.capture, path: "/v1/captures", token: token, body: body, account: account)
    }

    /// `POST /v1/cancels` with our operation id as the cancel reference and our attempt id as the
    /// charge's reference.
    public func void(_ request: VoidRequest, account: AccountContext) async throws -> Outcome {
        guard let token = account.accessTokenSecret else { return .authExpired }
        let chargeId = try Self.chargeId(request.payment)
        let body = try ProviderJSON.standard.encode(CitconMapping.cancelRequest(request, chargeId: chargeId))
        return await operation(.void, path: "/v1/cancels", token: token, body: body, account: account)
    }

    /// `POST /v1/refunds` with our refund id as the refund reference.
    public func refund(_ request: RefundRequest, account: AccountContext) async throws -> Outcome {
        guard let token = account.accessTokenSecret else { return .authExpired }
        let chargeId = try Self.chargeId(request.payment)
        let body = try ProviderJSON.standard.encode(CitconMapping.refundRequest(request, chargeId: chargeId))
        return await operation(.refund, path: "/v1/refunds", token: token, body: body, account: account)
    }

    /// Sends a capture, cancel or refund and maps the operation object Citcon answers with.
    func operation(
        _ call: CitconCall, path: String, token: Secret, body: Data, account: AccountContext
    ) async -> Outcome {
        let exchange = await exchange(
            call, method: "POST", path: path, bearer: token, body: body, account: account,
            as: CitconOperationData.self
        )
        return exchange.resolve(CitconMapping.operationOutcome)
    }

    /// Citcon's charge id: captures, cancels and refunds name the charge by it.
    static func chargeId(_ payment: PaymentLocator) throws -> String {
        try payment.requireProviderPaymentId("Citcon's charge id is not known; sync the payment first")
    }
}
