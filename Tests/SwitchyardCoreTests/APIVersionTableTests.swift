import SwitchyardCore
import Testing

/// The table of API versions: names, order, which changes each has, and the pinned version of a tenant.
struct APIVersionTableTests {
    @Test func versionsAreDateNamedUniqueAndOldestFirst() throws {
        let names = APIVersion.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names == names.sorted())
        let date = try Regex("^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
        #expect(names.allSatisfy { $0.wholeMatch(of: date) != nil })
        #expect(APIVersion.oldest == .v2026_06_01)
        #expect(APIVersion.current == .v2026_12_01)
    }

    @Test func onlyKnownNamesAreVersions() {
        #expect(APIVersion("2026-06-01") == .v2026_06_01)
        #expect(APIVersion("2026-12-01") == .v2026_12_01)
        for bad in ["", "2026-12-02", "2026-6-1", "latest", " 2026-12-01"] {
            #expect(APIVersion(bad) == nil, "\(bad)")
        }
    }

    @Test func aChangeHoldsFromTheVersionThatIntroducesItOn() {
        for change in APIVersion.Change.allCases {
            #expect(!APIVersion.v2026_06_01.has(change), "\(change)")
            #expect(APIVersion.v2026_12_01.has(change), "\(change)")
            let introducing = APIVersion.all.filter { $0.changes.contains(change) }
            #expect(introducing.count == 1, "each change is introduced once: \(change)")
        }
    }

    @Test func aTenantWithoutAKnownVersionBehavesAsTheOldest() {
        #expect(APIVersion.pinned(nil) == .oldest)
        #expect(APIVersion.pinned("1999-01-01") == .oldest)
        #expect(APIVersion.pinned("2026-12-01") == .v2026_12_01)
    }
}
