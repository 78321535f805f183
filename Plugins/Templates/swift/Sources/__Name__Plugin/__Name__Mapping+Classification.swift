#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension __Name__Mapping {
    /// Classifies what the host got back for `call`.
    ///
    /// - transport: not sent → `notSent`; timeout or reset after sending → `unknown` (`no_response`);
    ///   5xx → `unknown` (`http_5xx`): the provider may have processed it (ProviderKit's `classified`);
    /// - 2xx → the decoded payload, or `unknown` (`unparsable_response`) when the body does not decode;
    /// - anything else → ``errorOutcome(_:call:secrets:)``.
    ///
    /// `secrets` are scrubbed from any provider text copied into an outcome.
    static func classify<Payload: Decodable & Sendable>(
        _ result: OutboundResult, call: __Name__Call, as type: Payload.Type, secrets: [String]
    ) -> ExchangeResult<Payload> {
        result.classified(provider: provider, answered: .belowServerError).flatMap { answer in
            guard answer.isSuccess else { return .outcome(errorOutcome(answer, call: call, secrets: secrets)) }
            return answer.decoded(type, provider: provider)
        }
    }

    /// The outcome of a 4xx answer.
    ///
    /// - 404 to a payment lookup → ``notFound`` (the flow decides what it proves);
    /// - 409 → `unknown`: a request with this idempotency key is still running, or was different;
    /// - 429 → `notSent`: rate limited, nothing was processed;
    /// - a body that is not an `error` object → `unknown` (`http_<status>`): nothing can be read from it;
    /// - a refused lookup → `unknown`: a lookup never declines a payment;
    /// - any other refusal → `declined` with the provider's code: a decline is data, not an error.
    static func errorOutcome(_ answer: ProviderAnswer, call: __Name__Call, secrets: [String]) -> Outcome {
        let status = answer.status
        if call == .getPayment, status == 404 { return notFound }
        if status == 409 {
            return .unknown(code: "idempotency_conflict", message: "\(provider) is still processing this request")
        }
        if status == 429 {
            return Outcome(kind: .notSent, code: "rate_limited", message: "\(provider) rate-limited the request")
        }
        guard let error = ProviderJSON.standard.decode(__Name__ErrorResponse.self, from: answer.body)?.error else {
            return .unknown(code: "http_\(status)", message: "unreadable answer from \(provider) (HTTP \(status))")
        }
        let code = ProviderText.safeCode(error.code) ?? "http_\(status)"
        let message = ProviderText.scrub(error.message ?? "\(provider) refused the request", secrets: secrets)
        guard call != .getPayment else { return .unknown(code: code, message: message) }
        return .declined(code: code, message: message, retryable: false)
    }

    /// A lookup found no such payment.
    static let notFound = Outcome(kind: .unknown, code: "not_found", message: "\(provider) knows no such payment")
}
