/// How many connections each client address has open, held to a cap per address: the bookkeeping behind
/// ``ConnectionAddressLimitHandler``, one tally shared by all of a server's connections.
struct ConnectionTally: Sendable, Equatable {
    /// Most connections one address may have open at once.
    let limitPerAddress: Int
    /// Open connections by address; an address with none is absent.
    private(set) var open: [String: Int] = [:]

    init(limitPerAddress: Int) {
        self.limitPerAddress = limitPerAddress
    }

    /// Counts a new connection from `address` and returns true, or returns false (counting nothing) when
    /// that address already has its limit open.
    mutating func admit(_ address: String) -> Bool {
        let current = open[address, default: 0]
        guard current < limitPerAddress else { return false }
        open[address] = current + 1
        return true
    }

    /// Forgets one admitted connection from `address`, when it closes.
    mutating func release(_ address: String) {
        guard let current = open[address] else { return }
        open[address] = current > 1 ? current - 1 : nil
    }

    /// The connections `address` has open.
    func count(_ address: String) -> Int { open[address, default: 0] }
}
