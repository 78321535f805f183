import Foundation
import SwitchyardCore

/// A heavy part of a payment that `GET /v1/payments` renders only when `expand[]` names it, in an API
/// version with ``SwitchyardCore/APIVersion/Change/listsOmitHeavyParts``; a single payment is always
/// rendered whole.
enum PaymentExpansion: String, CaseIterable, Sendable {
    /// Every attempt at a provider.
    case attempts
    /// Every capture, cancel and refund operation.
    case operations
    /// The routing decision and its ranking.
    case routing
}

extension PaymentResource {
    /// The payment with only the heavy parts in `expanded`.
    func expanding(only expanded: Set<PaymentExpansion>) -> PaymentResource {
        var light = self
        if !expanded.contains(.attempts) { light.attempts = nil }
        if !expanded.contains(.operations) { light.operations = nil }
        if !expanded.contains(.routing) { light.routing = nil }
        return light
    }
}
