#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Sends a plugin's requests through the host and logs each call's end, one line a call.
///
/// The plugin builds the request (URL, headers, signed body) and classifies the host's answer with a pure
/// function (usually ``OutboundResult/classified(provider:answered:)`` followed by its status table); the
/// exchange sends, classifies and logs `provider.account`, the call, `http.status` and, for an outcome, its
/// kind and code. Nothing else is logged: no URL, header or body.
public struct ProviderExchange: Sendable {
    /// The host's services.
    public let host: any HostServices
    /// The short provider name that starts log messages (`citcon call done`).
    public let logName: String
    /// The metadata key that names the call (`citcon.call`).
    public let callKey: String

    /// An exchange logging as `logName`; the call goes under `callKey`, by default `<logName>.call`.
    public init(host: any HostServices, logName: String, callKey: String? = nil) {
        self.host = host
        self.logName = logName
        self.callKey = callKey ?? logName + ".call"
    }

    /// Sends `request` and classifies the answer with `classify`.
    public func send<Payload: Sendable>(
        _ request: OutboundRequest, call: String, account: AccountContext,
        classify: (OutboundResult) -> ExchangeResult<Payload>
    ) async -> ExchangeResult<Payload> {
        let result = await host.send(request)
        let exchange = classify(result)
        if case .success = exchange, host.logLevel > .debug { return exchange }
        var fields = ["provider.account": account.accountId, callKey: call]
        fields["http.status"] = result.status.map(String.init) ?? result.kind.rawValue
        switch exchange {
        case .success:
            host.log(.debug, "\(logName) call done", metadata: fields)
        case .outcome(let outcome):
            fields["outcome.kind"] = outcome.kind.rawValue
            fields["outcome.code"] = outcome.code ?? ""
            host.log(outcome.kind == .declined ? .info : .warning, "\(logName) call not completed", metadata: fields)
        }
        return exchange
    }
}

extension HTTPHeader {
    /// `Content-Type: application/json`.
    public static let jsonContent = HTTPHeader("Content-Type", "application/json")

    /// `Authorization: Bearer <token>`; send it with `Authorization` among the redacted headers.
    public static func bearer(_ token: Secret) -> HTTPHeader {
        HTTPHeader("Authorization", "Bearer " + token.reveal())
    }
}
