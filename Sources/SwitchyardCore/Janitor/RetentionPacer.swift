import Foundation
import Synchronization

/// When the janitor next deletes each kind of expired data: at most once per interval
/// (`retention.interval_seconds`), but on the next look again while the previous delete came back with a full
/// batch, so a backlog drains at the janitor's pace and an idle table costs one statement per interval.
///
/// The times are the janitor's clock's. A clock that went back past the last delete makes the kind due, so a
/// corrected clock never stalls retention for longer than it moved.
final class RetentionPacer: Sendable {
    /// The last delete of each kind: when it ran and whether it deleted a full batch.
    private let last = Mutex<[String: (at: Date, full: Bool)]>([:])

    init() {}

    /// Whether `kind` is to be deleted on a look at `now`, `interval` seconds apart at least.
    func isDue(_ kind: String, at now: Date, interval: TimeInterval) -> Bool {
        last.withLock { last in
            guard let previous = last[kind] else { return true }
            return previous.full || now < previous.at || now.timeIntervalSince(previous.at) >= interval
        }
    }

    /// Records a delete of `kind` at `now`; `full` when it deleted a whole batch (more may be waiting).
    func ran(_ kind: String, at now: Date, full: Bool) {
        last.withLock { $0[kind] = (now, full) }
    }
}
