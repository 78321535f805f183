/// A fault-injection rule of an emulator.
///
/// A rule matches a wire request when every field it sets matches: `method` (case-insensitive),
/// `pathPrefix` (against the path inside the emulator, e.g. `/v1/charges`, or the full path, e.g.
/// `/citcon/v1/charges`) and `merchant` (the merchant identified by the request's credentials).
/// `count` is how many matching requests the rule still applies to (nil: all of them). When several
/// rules match, the first one added wins. Admin routes are never subject to faults.
///
/// JSON form (admin surface): `{"kind":"http500","method":"POST","pathPrefix":"/v1/charges",
/// "merchant":"m1","count":1,"latencyMs":250}`; only `kind` is required. A decline-rate fault:
/// `{"kind":"decline","merchant":"m1","probability":0.3,"seed":7}`.
public struct SandboxFault: Sendable, Codable, Equatable {
    /// What the fault does.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// Waits `latencyMs` (default 1 s), then processes the request normally.
        case latency
        /// Answers HTTP 500 without processing the request.
        case http500
        /// Answers HTTP 503 without processing the request.
        case http503
        /// Drops the TCP connection (RST) without an HTTP answer and without processing.
        case reset
        /// Processes the request fully (state and ledger written), then holds the answer for
        /// `latencyMs` (default 30 s) before sending it.
        case timeoutAfterProcessing
        /// Holds the request for `latencyMs` (default 30 s), then answers HTTP 504 without processing.
        case timeoutBeforeProcessing
        /// Answers HTTP 200 with a body that is not JSON, without processing the request.
        case malformed
        /// Signs the notifications sent to the merchant with a wrong signature. Only `merchant` and
        /// `count` apply (count = number of notifications affected).
        case badSignature
        /// Answers as the provider does when it is momentarily unable to take requests, without
        /// processing: the provider's own "not processed, try again" answer where it has one (Worldline
        /// Direct: 503 with retriable errors; Antom: `U REQUEST_TRAFFIC_EXCEED_LIMIT`), else HTTP 503.
        case unavailable
        /// Loses the notifications meant for the merchant: they are never sent. Only `merchant` and
        /// `count` apply (count = number of notifications lost).
        case dropNotification
        /// Processes a payment request as the provider's real decline: the emulator's own decline answer,
        /// status and (absent) ledger movement, exactly as for its declined test card. Only payment
        /// creation is affected; `merchant`, `count`, `probability` and `seed` apply. With a `seed`, the
        /// draw is derived from the seed and the payment's merchant reference, so the same payment always
        /// gets the same answer. Emulators that cannot decline on request refuse rules of this kind.
        case decline
    }

    /// HTTP method to match, e.g. `POST`; nil matches any.
    public var method: String?
    /// Path prefix to match; nil matches any.
    public var pathPrefix: String?
    /// Merchant to match; nil matches every merchant (and requests without credentials).
    public var merchant: String?
    /// What happens to a matching request.
    public var kind: Kind
    /// How many matching requests (or notifications) the rule applies to; nil means all.
    public var count: Int?
    /// Delay in milliseconds for `latency`, `timeoutAfterProcessing` and `timeoutBeforeProcessing`.
    public var latencyMs: Int?
    /// The share (0…1) of matching requests the rule applies to, drawn at random per request; nil: all.
    /// A request the draw spares does not consume `count`.
    public var probability: Double?
    /// Makes `probability` a deterministic draw for `decline`: derived from this seed and the payment's
    /// merchant reference (see ``draw(seed:reference:)``); nil: a random draw per request.
    public var seed: Int?

    /// Creates a rule.
    public init(
        kind: Kind,
        method: String? = nil,
        pathPrefix: String? = nil,
        merchant: String? = nil,
        count: Int? = nil,
        latencyMs: Int? = nil,
        probability: Double? = nil,
        seed: Int? = nil
    ) {
        self.probability = probability
        self.seed = seed
        self.kind = kind
        self.method = method
        self.pathPrefix = pathPrefix
        self.merchant = merchant
        self.count = count
        self.latencyMs = latencyMs
    }

    /// The delay this rule applies, with the kind's default when `latencyMs` is not set.
    var delay: Duration {
        if let latencyMs { return .milliseconds(max(0, latencyMs)) }
        switch kind {
        case .timeoutAfterProcessing, .timeoutBeforeProcessing: return .seconds(30)
        default: return .seconds(1)
        }
    }
}
