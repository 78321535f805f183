import Synchronization

/// Counts the outbound sends a plugin asked the host for. A call that ends without the plugin's answer is
/// `notSent` only if no send happened since it began (any send of the plugin counts: conservative).
final class SendLedger: Sendable {
    private let sends = Atomic<UInt64>(0)

    /// Records one `http_send` reaching the host.
    func record() {
        sends.wrappingAdd(1, ordering: .relaxed)
    }

    /// Sends recorded so far.
    var count: UInt64 { sends.load(ordering: .relaxed) }
}
