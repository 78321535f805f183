#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Which HTTP statuses carry an answer a plugin reads with its own status table; the others are `unknown`.
public enum AnsweredStatuses: Sendable, Equatable {
    /// Only 200: the provider answers every business result with 200, so any other status may or may not
    /// have been processed.
    case okOnly
    /// Anything below 500; a 5xx may or may not have been processed.
    case belowServerError
    /// Every status; the plugin's table decides 5xx too.
    case all

    /// Whether an answer with `status` is handed to the plugin.
    public func reads(_ status: Int) -> Bool {
        switch self {
        case .okOnly: return status == 200
        case .belowServerError: return status < 500
        case .all: return true
        }
    }
}

extension OutboundResult {
    /// The transport classification of what the host got back, before the provider's answer is read:
    ///
    /// - `notSent` (DNS, connection refused, TLS or connect failure: certainly not sent) → `notSent`;
    /// - `noResponse` (timeout or reset after sending) or a response without a status → `unknown`
    ///   (`no_response`): the provider may have processed it;
    /// - a status `answered` does not read → `unknown` (`http_<status>`);
    /// - otherwise the answer, for the plugin's status table.
    ///
    /// `provider` names the provider in messages (`request not sent to Citcon`).
    public func classified(provider: String, answered: AnsweredStatuses) -> ExchangeResult<ProviderAnswer> {
        switch kind {
        case .notSent:
            return .outcome(.notSent("request not sent to \(provider)"))
        case .noResponse:
            return .outcome(.unknown(code: "no_response", message: "no complete answer from \(provider)"))
        case .response:
            break
        }
        guard let status else {
            return .outcome(.unknown(code: "no_response", message: "no HTTP status from \(provider)"))
        }
        guard answered.reads(status) else {
            return .outcome(.unknown(code: "http_\(status)", message: "\(provider) answered HTTP \(status)"))
        }
        return .success(ProviderAnswer(status: status, headers: headers, body: body))
    }
}

extension ExchangeResult {
    /// Continues with the payload (`transform` may end the flow with an outcome); an outcome stays as it is.
    public func flatMap<Other: Sendable>(_ transform: (Payload) -> ExchangeResult<Other>) -> ExchangeResult<Other> {
        switch self {
        case .success(let payload): return transform(payload)
        case .outcome(let outcome): return .outcome(outcome)
        }
    }
}
