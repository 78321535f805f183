import Foundation
import Testing

/// Core, Store and HTTP are folded by capability, and ARCHITECTURE.md's table of capabilities names every
/// folder of each layer and no other: a new folder, or a file left at a layer's top level, fails here.
@Suite struct CapabilityFolderTests {
    /// The three layers, with their column in the table.
    static let layers = [("SwitchyardCore", 1), ("SwitchyardStore", 2), ("SwitchyardHTTP", 3)]
    /// Folders of a layer that hold no Swift of their own (resources, the console's files).
    static let resourceFolders: Set<String> = ["Resources", "Console"]

    /// The folders each column of the table names: every `` `Name/` `` in its cells.
    static func tableFolders() throws -> [Int: Set<String>] {
        let text = try String(
            contentsOf: ModuleBoundaryTests.root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
        var columns: [Int: Set<String>] = [:]
        var inTable = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("<!-- capability-folders -->") { inTable = true; continue }
            if line.hasPrefix("<!-- /capability-folders -->") { break }
            guard inTable, line.hasPrefix("|"), !line.hasPrefix("|---"), !line.hasPrefix("| Capability") else {
                continue
            }
            let cells = line.split(separator: "|").map(String.init)
            for (index, cell) in cells.enumerated() {
                for match in cell.matches(of: /`([A-Za-z]+)\/`/) { columns[index, default: []].insert(String(match.1)) }
            }
        }
        return columns
    }

    @Test func theTableNamesEveryFolderOfEachLayer() throws {
        let columns = try Self.tableFolders()
        #expect(!columns.isEmpty, "ARCHITECTURE.md has no capability-folders table")
        for (module, column) in Self.layers {
            let directory = ModuleBoundaryTests.root.appendingPathComponent("Sources/\(module)")
            let entries = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            var folders: Set<String> = []
            for entry in entries {
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(
                    atPath: directory.appendingPathComponent(entry).path, isDirectory: &isDirectory)
                if isDirectory.boolValue {
                    if !Self.resourceFolders.contains(entry) { folders.insert(entry) }
                } else {
                    #expect(!entry.hasSuffix(".swift"), "\(module)/\(entry) is not in a capability folder")
                }
            }
            let named = columns[column] ?? []
            #expect(
                folders.subtracting(named).isEmpty,
                "\(module) folders missing from the table: \(folders.subtracting(named).sorted())")
            #expect(
                named.subtracting(folders).isEmpty,
                "the table names \(module) folders that do not exist: \(named.subtracting(folders).sorted())")
        }
    }
}
