import Foundation

/// Test and live mode in routing: a key's payments reach only the accounts of its mode.
extension Livemode {
    /// The routing candidates of mode `livemode` (all of them when nil).
    static func candidates(_ all: [UUID: RoutingCandidate], livemode: Bool?) -> [UUID: RoutingCandidate] {
        guard let livemode else { return all }
        return all.filter { $0.value.account.livemode == livemode }
    }

    /// `422 no_account_for_mode`: the payment would route only to accounts of the other mode.
    static func noAccount(livemode: Bool) -> CoreError {
        let (mode, other) = (Livemode.name(livemode), Livemode.name(!livemode))
        let environments = (livemode ? Livemode.liveEnvironments : Livemode.testEnvironments).sorted()
        return CoreError(
            .noAccountForMode,
            "a \(mode) key pays only through \(mode) accounts (environment \(environments.joined(separator: " or "))); "
                + "the routing rules leave this payment only \(other) accounts")
    }
}
