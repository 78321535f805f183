#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

/// The Citcon calls the plugin makes; the classification of an answer depends on it.
enum CitconCall: String, Sendable {
    case accessToken = "access_token"
    case authorize
    case capture
    case void
    case refund
    case sync

    /// Whether the call may move money (a duplicate reference then hides the original's outcome).
    var movesMoney: Bool {
        switch self {
        case .authorize, .capture, .void, .refund: return true
        case .accessToken, .sync: return false
        }
    }
}

/// Citcon's answer body, decoded as far as it goes.
enum CitconReply<Payload: Sendable>: Sendable {
    case success(Payload)
    case failure(CitconErrorData)
    case unparsable
}

extension CitconMapping {
    /// Decodes an envelope: `success` with `data` of the expected type, `fail` with its code, or neither.
    static func decodeReply<Payload: Decodable & Sendable>(
        _ body: Data?, as type: Payload.Type
    ) -> CitconReply<Payload> {
        let json = ProviderJSON.standard
        guard let head = json.decode(CitconEnvelopeStatus.self, from: body) else { return .unparsable }
        switch head.status.lowercased() {
        case "success":
            guard let data = json.decode(CitconEnvelope<Payload>.self, from: body)?.data else { return .unparsable }
            return .success(data)
        case "fail":
            let data = json.decode(CitconEnvelope<CitconErrorData>.self, from: body)?.data
            return .failure(data ?? CitconErrorData(code: nil, message: nil))
        default:
            return .unparsable
        }
    }

    /// Classifies what the host got back (contract §9 and DESIGN.md "Outcomes").
    ///
    /// - `notSent` transport → `notSent`; no response → `unknown`; 5xx → `unknown`;
    /// - HTTP 401 or code `4010` → `authExpired` (for the token call itself: the private key was refused,
    ///   a definitive `declined`);
    /// - code `4100` (duplicate reference) on a money-moving call → `unknown`: the original may have been
    ///   processed, so `sync` must tell;
    /// - a sync that finds nothing (HTTP 404 or code `4004`) → `unknown` with code `not_found` (``notFound``);
    ///   `sync` then judges a lookup by our reference with `NotFoundRule`; any other failed sync → `unknown`;
    /// - any other `fail` answer → `declined` with Citcon's code;
    /// - a 2xx whose body cannot be read, or any other answer → `unknown`.
    ///
    /// `secrets` are scrubbed from any provider text copied into an outcome message.
    static func classify<Payload: Decodable & Sendable>(
        _ result: OutboundResult, call: CitconCall, as type: Payload.Type, secrets: [String]
    ) -> ExchangeResult<Payload> {
        result.classified(provider: "Citcon", answered: .belowServerError).flatMap { answer in
            let status = answer.status
            let reply = decodeReply(answer.body, as: type)
            var failure: CitconErrorData?
            if case .failure(let data) = reply { failure = data }
            if status == 401 || failure?.code == "4010" {
                return .outcome(call == .accessToken ? privateKeyRefused : .authExpired)
            }
            switch reply {
            case .success(let payload) where answer.isSuccess:
                return .success(payload)
            case .failure(let data):
                return .outcome(businessFailure(data, httpStatus: status, call: call, secrets: secrets))
            case .success, .unparsable:
                if call == .sync, status == 404 { return .outcome(notFound) }
                let code = answer.isSuccess ? "unparsable_response" : "http_\(status)"
                return .outcome(.unknown(code: code, message: "unexpected answer from Citcon (HTTP \(status))"))
            }
        }
    }

    /// A `fail` answer other than an expired token.
    static func businessFailure(
        _ data: CitconErrorData, httpStatus: Int, call: CitconCall, secrets: [String]
    ) -> Outcome {
        let code = data.code ?? "http_\(httpStatus)"
        let message = scrub(data.message ?? "Citcon refused the request", secrets: secrets)
        if call == .sync {
            if httpStatus == 404 || code == "4004" { return notFound }
            return .unknown(code: code, message: message)
        }
        if code == "4100", call.movesMoney {
            return .unknown(code: code, message: "duplicate reference: the original request may have been processed")
        }
        return .declined(code: code, message: message, retryable: false)
    }

    /// Sync found no such transaction.
    static let notFound = Outcome(kind: .unknown, code: "not_found", message: "Citcon knows no such transaction")

    /// The token call's private key was refused: retrying with the same key cannot help.
    static let privateKeyRefused = Outcome.declined(code: "4010", message: "Citcon refused the private key")

    /// Provider text made safe for an outcome message: known secrets and anything shaped like a Citcon
    /// token removed, and the length capped.
    static func scrub(_ text: String, secrets: [String]) -> String {
        let text = ProviderText.scrub(text, secrets: secrets, limit: .max)
        return String(text.replacing(#/UPI_[A-Za-z0-9._~+\/=-]*/#, with: ProviderText.redaction).prefix(200))
    }
}
