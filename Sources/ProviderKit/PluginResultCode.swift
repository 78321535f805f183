/// The code of a plugin's failure or outcome (``ProviderError/code``, ``Outcome/code``), or of the host's
/// answer for a call a plugin did not answer, parsed once from its wire text.
///
/// The codes the host acts on have a case; every other code (a provider's own decline code, `http_502`…)
/// is ``other(_:)`` and passes through unchanged. The wire text stays a plain string in the plugin ABI.
public enum PluginResultCode: Sendable, Hashable, CustomStringConvertible {
    /// The plugin (or its manifest) offers no such flow; nothing was sent.
    case notSupported
    /// The account's configuration is unusable (missing credential, bad base URL…); nothing was sent.
    case misconfigured
    /// The plugin could not use the request it was given; nothing was sent.
    case badRequest
    /// The client session the request needs has expired; nothing was sent.
    case sessionExpired
    /// The provider needs a return URL the request lacks; nothing was sent.
    case returnURLRequired
    /// The call was cancelled.
    case cancelled
    /// The plugin's reply does not decode.
    case badReply
    /// The host could not encode the request.
    case encodeFailed
    /// The deadline passed before the plugin asked for any outbound send.
    case deadlineBeforeSend
    /// The deadline passed after the plugin asked for an outbound send.
    case deadlineExceeded
    /// The plugin's worker died before the plugin asked for any outbound send.
    case workerLostBeforeSend
    /// The plugin's worker died after the plugin asked for an outbound send.
    case workerLost
    /// No worker of the plugin runs (restarting or quarantined).
    case workerUnavailable
    /// The request certainly did not reach the provider (``Outcome/notSent(_:)``).
    case notSent
    /// The outcome is not known (``Outcome/unknown(_:providerPaymentId:)``).
    case unknown
    /// The provider rejected the access token (``Outcome/authExpired``).
    case authExpired
    /// No access token could be obtained for the call.
    case accessTokenFailed
    /// The access token could not be refreshed: its storage is unavailable.
    case accessTokenUnavailable
    /// Another replica is refreshing the access token.
    case accessTokenBusy
    /// The plugin failed with an error that is not a ``ProviderError``.
    case pluginError
    /// An inquiry found nothing long enough after the attempt: it never reached the provider (``NotFoundRule``).
    case notReceived
    /// An inquiry found nothing yet; it may still appear (``NotFoundRule``).
    case notFoundYet
    /// Any other code: the provider's own, passed through as it came.
    case other(String)

    /// The codes with a case of their own.
    public static let named: [PluginResultCode] = [
        .notSupported, .misconfigured, .badRequest, .sessionExpired, .returnURLRequired, .cancelled, .badReply,
        .encodeFailed, .deadlineBeforeSend, .deadlineExceeded, .workerLostBeforeSend, .workerLost,
        .workerUnavailable, .notSent, .unknown, .authExpired, .accessTokenFailed, .accessTokenUnavailable,
        .accessTokenBusy, .pluginError,
        .notReceived, .notFoundYet,
    ]

    private static let byText = Dictionary(uniqueKeysWithValues: named.map { ($0.rawValue, $0) })

    /// Parses a wire code; a code without a case of its own is ``other(_:)``.
    public init(parsing text: String) {
        self = Self.byText[text] ?? .other(text)
    }

    /// The wire text.
    public var rawValue: String {
        switch self {
        case .notSupported: return "not_supported"
        case .misconfigured: return "misconfigured"
        case .badRequest: return "bad_request"
        case .sessionExpired: return "session_expired"
        case .returnURLRequired: return "return_url_required"
        case .cancelled: return "cancelled"
        case .badReply: return "bad_reply"
        case .encodeFailed: return "encode_failed"
        case .deadlineBeforeSend: return "deadline_before_send"
        case .deadlineExceeded: return "deadline_exceeded"
        case .workerLostBeforeSend: return "worker_lost_before_send"
        case .workerLost: return "worker_lost"
        case .workerUnavailable: return "worker_unavailable"
        case .notSent: return "not_sent"
        case .unknown: return "unknown"
        case .authExpired: return "auth_expired"
        case .accessTokenFailed: return "access_token_failed"
        case .accessTokenUnavailable: return "access_token_unavailable"
        case .accessTokenBusy: return "access_token_busy"
        case .pluginError: return "plugin_error"
        case .notReceived: return "not_received"
        case .notFoundYet: return "not_found_yet"
        case .other(let text): return text
        }
    }

    public var description: String { rawValue }

    /// A plugin refusal before it built a request: nothing reached the provider.
    public var isRefusalBeforeSending: Bool {
        switch self {
        case .notSupported, .misconfigured, .badRequest, .sessionExpired, .returnURLRequired: return true
        default: return false
        }
    }

    /// The host's answer for a call the plugin did not answer, when it asked for no outbound send meanwhile.
    public var isUnansweredBeforeSending: Bool {
        switch self {
        case .deadlineBeforeSend, .workerLostBeforeSend, .workerUnavailable: return true
        default: return false
        }
    }

    /// The host's answer for a call the plugin did not answer after it asked for an outbound send.
    public var isUnansweredAfterSending: Bool {
        switch self {
        case .deadlineExceeded, .workerLost: return true
        default: return false
        }
    }
}

extension Outcome {
    /// ``code`` parsed; nil when there is none.
    public var resultCode: PluginResultCode? { code.map(PluginResultCode.init(parsing:)) }

    /// An outcome with a result code of ours.
    public init(kind: Kind, resultCode: PluginResultCode, message: String?) {
        self.init(kind: kind, code: resultCode.rawValue, message: message)
    }
}

extension ProviderError {
    /// ``code`` parsed.
    public var resultCode: PluginResultCode { PluginResultCode(parsing: code) }

    /// An error with a result code of ours.
    public init(_ code: PluginResultCode, message: String) {
        self.init(code: code.rawValue, message: message)
    }
}
