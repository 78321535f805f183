#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

/// The Worldline calls the plugin makes; the classification of an answer depends on it.
enum WorldlineCall: String, Sendable {
    case session
    case createPayment = "create_payment"
    case capture
    case cancel
    case refund
    case getPayment = "get_payment"
}

extension WorldlineDirectMapping {
    /// The error code Worldline uses for "a request with this idempotence key is still in progress".
    static let inProgressCode = "30001002"

    /// Classifies what the host got back (PROVIDERS.md §2.10, DESIGN.md "Outcomes").
    ///
    /// - transport `notSent` → notSent; `noResponse` → unknown (`no_response`);
    /// - 2xx → the decoded body, or unknown (`unparsable_response`) when it does not decode;
    /// - 409 with the single error `30001002` → unknown (`in_progress`): the first request still runs;
    /// - a body with `paymentResult` (declined payment) or `refundResult` (refused refund) → that object's
    ///   status, with the first error's code;
    /// - `errors[]` all `retriable: true`, no payment id anywhere in the body, and an HTTP status that
    ///   says nothing was processed (4xx, 502, 503) → notSent (resend with a new idempotence key);
    /// - any other 5xx → unknown (`http_5xx`): the request may have been processed;
    /// - `getPayment` with 404 → unknown (`not_found`); any other failed `getPayment` → unknown;
    /// - any other 4xx → declined with Worldline's `errorCode` (or `http_4xx`), not retryable: the request
    ///   itself was refused (validation, authorisation, reference), which is an integration problem.
    static func classify<Payload: Decodable & Sendable>(
        _ result: OutboundResult, call: WorldlineCall, as type: Payload.Type
    ) -> ExchangeResult<Payload> {
        result.classified(provider: "Worldline", answered: .all).flatMap { answer in
            guard answer.isSuccess else {
                let failure = ProviderJSON.standard.decode(WorldlineErrorResponse.self, from: answer.body)
                return .outcome(errorOutcome(failure, httpStatus: answer.status, call: call))
            }
            return answer.decoded(type, provider: "Worldline")
        }
    }

    /// The outcome of a non-2xx answer whose body decoded (or not) as an error response.
    static func errorOutcome(_ failure: WorldlineErrorResponse?, httpStatus: Int, call: WorldlineCall) -> Outcome {
        let errors = failure?.errors ?? []
        let firstCode = errors.first.flatMap(errorCode)
        if httpStatus == 409, errors.count == 1, firstCode == inProgressCode {
            return .unknown(code: "in_progress", message: "a request with this idempotence key is still in progress")
        }
        if let result = failure?.paymentResult, let payment = result.payment {
            var outcome = paymentOutcome(payment)
            if outcome.kind == .declined, let firstCode { outcome.code = firstCode }
            return outcome
        }
        if let refund = failure?.refundResult {
            var outcome = refundOutcome(refund)
            if outcome.kind == .declined, let firstCode { outcome.code = firstCode }
            return outcome
        }
        let nothingProcessed = httpStatus < 500 || httpStatus == 502 || httpStatus == 503
        if nothingProcessed, !errors.isEmpty, errors.allSatisfy({ $0.retriable == true }) {
            return Outcome(
                kind: .notSent, code: firstCode ?? "retriable",
                message: "Worldline asks to resend the request with a new idempotence key")
        }
        if httpStatus >= 500 {
            return .unknown(code: firstCode ?? "http_\(httpStatus)", message: "Worldline answered HTTP \(httpStatus)")
        }
        if call == .getPayment {
            if httpStatus == 404 { return .unknown(code: "not_found", message: "Worldline knows no such payment") }
            return .unknown(code: firstCode ?? "http_\(httpStatus)", message: "Worldline refused the inquiry")
        }
        var message = "Worldline refused the request (HTTP \(httpStatus))"
        if let property = errors.first?.propertyName, !property.isEmpty, property.count <= 100 {
            message += " at \(property)"
        }
        return .declined(code: firstCode ?? "http_\(httpStatus)", message: message, retryable: false)
    }
}
