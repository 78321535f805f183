import Foundation
import HTTPTypes
import Hummingbird
import SwitchyardCore

extension IdempotencyGate {
    static func logTakeover(_ resourceId: String?, tenant: UUID, _ context: AppContext) {
        context.logger.notice(
            "idempotency key taken over",
            metadata: ["tenant.id": "\(tenant)", "resource.id": "\(resourceId ?? "none")"])
    }

    /// `error` as the domain names it: an API error of the HTTP layer (a body that does not decode) as the
    /// ``CoreError`` it stores for its key.
    static func domainError(_ error: any Error) -> any Error {
        (error as? APIError)?.coreError ?? error
    }

    /// The key an `Idempotency-Key` is stored under (the store adds the tenant): the method and the route
    /// template with its parameters filled in, decoded and re-encoded canonically, e.g.
    /// `POST /v1/payments/pay_1/refunds <key>`. The request's own spelling of the path plays no part.
    static func scopedKey(method: HTTPRequest.Method, route: String?, parameters: Parameters, key: String) -> String {
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let components = (route ?? "").split(separator: "/", omittingEmptySubsequences: true).map { component in
            guard component.hasPrefix("{"), component.hasSuffix("}"), component.count > 2 else {
                return String(component)
            }
            let raw = parameters.get(String(component.dropFirst().dropLast())) ?? ""
            let value = raw.removingPercentEncoding ?? raw
            return value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
        }
        return "\(method.rawValue) /\(components.joined(separator: "/")) \(key)"
    }

    /// The replay of a stored outcome: the resource rendered from its current record, or the error (quoting
    /// the replaying request's id) with the status its code maps to.
    func replayed(_ outcome: IdempotentOutcome, tenant: UUID, headers: HTTPFields, requestID: String?)
        async throws -> Response
    {
        switch outcome {
        case .resource(let resource):
            let encoded = try await rendered(resource, tenant: tenant)
            return JSONIO.raw(encoded.status, encoded.data, headers: headers)
        case .failure(let stored):
            let error = APIError(stored)
            return JSONIO.raw(error.status, try Self.envelope(error, requestID: requestID), headers: headers)
        }
    }

    /// A resource as it is now, with the status it was first answered with.
    private func rendered(_ resource: IdempotentResource, tenant: UUID) async throws -> Encoded {
        let status: HTTPResponse.Status = resource.created ? .created : .ok
        switch resource.kind {
        case .payment:
            return try Encoded(
                status,
                PaymentResource(try await service.get(tenant: tenant, paymentId: resource.id), now: service.now()))
        case .refund:
            guard let refund = try await payments.refund(id: resource.id), refund.tenantId == tenant else {
                throw CoreError.notFound("refund")
            }
            return try Encoded(status, RefundResource(refund))
        case .paymentMethod:
            let method = try await service.paymentMethod(
                tenant: tenant, customerId: resource.parent ?? "", id: resource.id)
            return try Encoded(status, PaymentMethodResource(method, now: service.now()))
        case .dispute:
            let dispute = try await service.disputes.get(tenant: tenant, id: resource.id)
            return try Encoded(status, DisputeSnapshot(dispute, now: service.now()))
        }
    }
}

extension IdempotencyGate {
    /// An error's body, as a replay of it answers.
    static func envelope(_ error: APIError, requestID: String?) throws -> Data {
        try JSONIO.encoder.encode(error.envelope(requestID: requestID))
    }
}
