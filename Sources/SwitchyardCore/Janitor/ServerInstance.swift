import Foundation

/// One incarnation of a server process, as the `Idempotency-Key`s it claims name it: a stable replica id
/// (`--replica-id`, by default `<host>:<port>`) and the incarnation the database counted when the process
/// started. Every key this process claims is owned by `<replica>#<incarnation> <random>`, so the keys of a
/// dead incarnation can be found and released by their owner's prefix (see ``InstanceRegistry``).
public struct ServerInstance: Sendable, Equatable {
    public var replica: String
    public var incarnation: Int64

    public init(replica: String, incarnation: Int64) {
        self.replica = replica
        self.incarnation = incarnation
    }

    /// `<replica>#<incarnation>`.
    public var id: String { "\(replica)#\(incarnation)" }

    /// What every owner this incarnation names starts with.
    public var ownerPrefix: String { id + " " }

    /// What the owners of every incarnation of `replica` start with.
    public static func replicaPrefix(_ replica: String) -> String { replica + "#" }

    /// A new owner for one request's key.
    public func newOwner() -> String { ownerPrefix + UUID.random().uuidString.lowercased() }

    /// Why `replica` cannot name a replica (empty, too long, or with a space, `#` or a control character);
    /// nil when it can.
    public static func problem(replica: String) -> String? {
        if replica.isEmpty { return "the replica id is empty" }
        if replica.utf8.count > 200 { return "the replica id is longer than 200 bytes" }
        if replica.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "#") }) {
            return "the replica id may not contain spaces, control characters or '#'"
        }
        return nil
    }
}
