import Foundation
import SwitchyardCore
import Testing

/// A server incarnation names the owners of the keys it claims so that they are found by prefix: its own,
/// and every incarnation of its replica's, never another replica's.
struct ServerInstanceTests {
    @Test func ownersAreFoundByTheirIncarnationAndReplicaPrefixes() {
        let first = ServerInstance(replica: "host:8080", incarnation: 1)
        let tenth = ServerInstance(replica: "host:8080", incarnation: 10)
        let owner = first.newOwner()
        #expect(owner.hasPrefix(first.ownerPrefix))
        #expect(!owner.hasPrefix(tenth.ownerPrefix))
        #expect(!tenth.newOwner().hasPrefix(first.ownerPrefix), "incarnation 1 is not a prefix of 10")
        #expect(owner.hasPrefix(ServerInstance.replicaPrefix("host:8080")))
        #expect(!owner.hasPrefix(ServerInstance.replicaPrefix("host:808")))
        #expect(first.newOwner() != owner)
    }

    @Test(arguments: [
        ("host:8080", true), ("10.0.0.1:8080", true), ("", false), ("a b", false), ("a#1", false),
        ("tab\there", false), (String(repeating: "x", count: 201), false),
    ])
    func aReplicaIdIsPrintableWithoutSpacesOrHashes(replica: String, usable: Bool) {
        #expect((ServerInstance.problem(replica: replica) == nil) == usable)
    }
}
