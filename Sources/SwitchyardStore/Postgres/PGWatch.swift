import Synchronization

/// Counts the transactions a pool commits with one transaction setting (for instance one tenant's
/// `app.tenant_id`), and the statements their bodies run: a probe for tests and diagnostics. Register it
/// with ``PGPool/watch(setting:value:)`` and remove it with ``PGPool/unwatch(_:)``.
public final class PGWatch: Sendable {
    /// What the watched transactions came to so far.
    public struct Tally: Sendable, Equatable {
        /// Committed transactions.
        public var transactions = 0
        /// Committed transactions that inserted, updated or deleted rows.
        public var writingTransactions = 0
        /// Statements run by the transactions' bodies (not `BEGIN`, settings or `COMMIT`).
        public var statements = 0

        public init(transactions: Int = 0, writingTransactions: Int = 0, statements: Int = 0) {
            self.transactions = transactions
            self.writingTransactions = writingTransactions
            self.statements = statements
        }
    }

    /// The transaction setting watched, e.g. `app.tenant_id`.
    public let setting: String
    /// The value it must have.
    public let value: String
    private let state = Mutex(Tally())

    init(setting: String, value: String) {
        self.setting = setting
        self.value = value
    }

    /// The counts so far.
    public var tally: Tally { state.withLock { $0 } }

    func committed(statements: Int, wrote: Bool) {
        state.withLock {
            $0.transactions += 1
            $0.statements += statements
            if wrote { $0.writingTransactions += 1 }
        }
    }
}

extension PGPool {
    /// Starts counting the transactions committed with `setting` set to `value`.
    public func watch(setting: String, value: String) -> PGWatch {
        let watch = PGWatch(setting: setting, value: value)
        watches.withLock { $0.append(watch) }
        return watch
    }

    /// Stops counting for `watch`.
    public func unwatch(_ watch: PGWatch) {
        watches.withLock { $0.removeAll { $0 === watch } }
    }

    /// Tells the watches matching `settings` about a committed transaction.
    func noteCommit(settings: [String: String], statements: Int, wrote: Bool) {
        let matching = watches.withLock { watches in
            watches.isEmpty ? [] : watches.filter { settings[$0.setting] == $0.value }
        }
        for watch in matching { watch.committed(statements: statements, wrote: wrote) }
    }
}
