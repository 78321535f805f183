import Foundation
import Testing

@testable import PluginHost

/// Cleaning up the private copies of plugins left by processes that are gone.
struct ShadowCopyTests {
    @Test func onlyShadowDirectoriesOfDeadProcessesAreRemoved() throws {
        let base = NSTemporaryDirectory() + "shadow-test-" + UUID().uuidString + "/"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let dead = "switchyard-shadow-2147483646-a1B2c3"
        let alive = "switchyard-shadow-\(getpid())-Zz9Yy8"
        // Names that merely start like one must survive, whatever digits they hold.
        let lookalikes = [
            "switchyard-shadow-12345678-1234-5678-9abc-def012345678", "switchyard-shadow-2147483646",
            "switchyard-shadow-2147483646-a1B2c3d4", "switchyard-shadow-x2147483646-a1B2c3",
            "switchyard-plugins-123-abcdef",
        ]
        for name in [dead, alive] + lookalikes {
            try FileManager.default.createDirectory(atPath: base + name, withIntermediateDirectories: false)
        }
        ShadowCopy.removeStaleDirectories(in: base)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: base))
        #expect(!left.contains(dead))
        #expect(left.contains(alive))
        #expect(left.isSuperset(of: lookalikes))
    }
}
