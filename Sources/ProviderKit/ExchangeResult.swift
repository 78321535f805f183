#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A classified exchange with a provider: its decoded answer, or the outcome that ends the flow.
public enum ExchangeResult<Payload: Sendable>: Sendable {
    /// The provider answered what the call asked for.
    case success(Payload)
    /// The call ends here with this outcome (not sent, unknown, declined…).
    case outcome(Outcome)

    /// The outcome, when the exchange ended with one.
    public var outcome: Outcome? {
        if case .outcome(let outcome) = self { return outcome }
        return nil
    }

    /// The payload mapped; an outcome stays as it is.
    public func map<Other: Sendable>(_ transform: (Payload) -> Other) -> ExchangeResult<Other> {
        switch self {
        case .success(let payload): return .success(transform(payload))
        case .outcome(let outcome): return .outcome(outcome)
        }
    }

    /// The exchange with an outcome naming the payment `id` when it names none yet; a payload stays as it is.
    public func naming(_ id: String?) -> ExchangeResult {
        switch self {
        case .success: return self
        case .outcome(let outcome): return .outcome(outcome.naming(id))
        }
    }

    /// The outcome of the flow: the payload's outcome by `transform`, or the outcome the exchange ended with.
    public func resolve(_ transform: (Payload) -> Outcome) -> Outcome {
        switch self {
        case .success(let payload): return transform(payload)
        case .outcome(let outcome): return outcome
        }
    }
}

/// An HTTP answer the provider gave, handed to the plugin's own reading (its status table).
public struct ProviderAnswer: Sendable, Equatable {
    /// The HTTP status.
    public var status: Int
    /// The response headers.
    public var headers: [HTTPHeader]
    /// The body, if any.
    public var body: Data?

    public init(status: Int, headers: [HTTPHeader] = [], body: Data? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The value of the first header with this name, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body decoded as the call's payload, or `unknown` (`unparsable_response`) when it does not decode.
    public func decoded<Payload: Decodable & Sendable>(
        _ type: Payload.Type, provider: String, json: ProviderJSON = .standard
    ) -> ExchangeResult<Payload> {
        guard let payload = json.decode(type, from: body) else {
            return .outcome(
                .unknown(code: "unparsable_response", message: "unreadable answer from \(provider) (HTTP \(status))"))
        }
        return .success(payload)
    }
}

/// A provider call named by its API path (`payments/pay`, `cashManagement/refund`).
public protocol ProviderCallPath: RawRepresentable where RawValue == String {}

extension ProviderCallPath {
    /// The path's last segment, for logs (`pay`, `refund`).
    public var logName: String {
        String(rawValue.split(separator: "/").last ?? "")
    }
}
