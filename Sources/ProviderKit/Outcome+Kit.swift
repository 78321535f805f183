#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Outcome {
    /// An `unknown` outcome with a code of ours (`no_response`, `http_503`, `unparsable_response`, …).
    public static func unknown(code: String, message: String, providerPaymentId: String? = nil) -> Outcome {
        Outcome(kind: .unknown, providerPaymentId: providerPaymentId, code: code, message: message)
    }

    /// The outcome, naming the payment `id` when it names none yet.
    public func naming(_ id: String?) -> Outcome {
        var outcome = self
        if outcome.providerPaymentId == nil { outcome.providerPaymentId = id }
        return outcome
    }
}

extension PaymentLocator {
    /// The provider's id of the payment, when known and not empty.
    public var knownProviderPaymentId: String? {
        guard let id = providerPaymentId, !id.isEmpty else { return nil }
        return id
    }

    /// The provider's id of the payment, for calls that name the payment by it.
    ///
    /// - Throws: `missing_provider_payment_id` (nothing sent) when it is not known; `message` says why.
    public func requireProviderPaymentId(_ message: String) throws -> String {
        guard let id = knownProviderPaymentId else {
            throw ProviderError(code: "missing_provider_payment_id", message: message)
        }
        return id
    }
}

extension Outcome {
    /// Sets the `code` and `message` that explain the outcome's class, and `retryable` when given.
    public mutating func explain(code: String, message: String, retryable: Bool? = nil) {
        self.code = code
        self.message = message
        if let retryable { self.retryable = retryable }
    }
}
