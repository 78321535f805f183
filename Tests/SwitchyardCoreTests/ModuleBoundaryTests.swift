import Foundation
import Testing

/// Every first-party `import` in Sources/ and Plugins/ is one that ARCHITECTURE.md's table of allowed imports
/// permits, so the module diagram stays true as the code changes.
@Suite struct ModuleBoundaryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The table's rows: module (or `Plugins/*`) → the first-party modules it may import.
    static func allowedImports() throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
        var rows: [String: Set<String>] = [:]
        var inTable = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("<!-- allowed-imports -->") { inTable = true; continue }
            if line.hasPrefix("<!-- /allowed-imports -->") { break }
            guard inTable, line.hasPrefix("|") else { continue }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2, let module = cells.first?.trimmingCharacters(in: CharacterSet(charactersIn: "`")),
                !module.isEmpty, module != "Module", !module.hasPrefix("-")
            else { continue }
            let allowed = cells[1].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            }.filter { !$0.isEmpty && $0 != "—" }
            rows[module] = Set(allowed)
        }
        return rows
    }

    static func swiftFiles(under directory: URL) -> [URL] {
        let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        var files: [URL] = []
        while let url = walker?.nextObject() as? URL {
            if url.pathExtension == "swift" { files.append(url) }
        }
        return files.sorted { $0.path < $1.path }
    }

    static func imports(of file: URL) throws -> [String] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
            guard words.count >= 2, words[0] == "import" else { return nil }
            return String(words[1].split(separator: ".")[0])
        }
    }

    /// The first-party modules: the folders of Sources/ and every plugin module (`…Plugin`, `…PluginEntry`).
    static func firstParty() throws -> Set<String> {
        let sources = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)
        return Set(sources)
    }

    static func isPluginModule(_ name: String) -> Bool { name.hasSuffix("Plugin") || name.hasSuffix("PluginEntry") }

    @Test func everyModuleHasARow() throws {
        let rows = try Self.allowedImports()
        let modules = try Self.firstParty().filter {
            !Self.swiftFiles(under: Self.root.appendingPathComponent("Sources/\($0)")).isEmpty
        }
        #expect(!rows.isEmpty, "ARCHITECTURE.md has no allowed-imports table")
        for module in modules.sorted() {
            #expect(rows[module] != nil, "ARCHITECTURE.md's allowed-imports table has no row for \(module)")
        }
        #expect(rows["Plugins/*"] != nil, "ARCHITECTURE.md's allowed-imports table has no row for Plugins/*")
        #expect(
            rows["Plugins/Templates/*"] != nil,
            "ARCHITECTURE.md's allowed-imports table has no row for Plugins/Templates/*")
    }

    /// Whether `file` imports Foundation other than as the fallback of `#if canImport(FoundationEssentials)`
    /// (the form that keeps the plugin kit building on Darwin, which has no FoundationEssentials module).
    static func importsFoundationUnconditionally(_ file: URL) throws -> Bool {
        var essentialsTest = false
        var fallback = false
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            let words = line.split(separator: " ")
            switch words.first {
            case "#if":
                essentialsTest = line.contains("canImport(FoundationEssentials)")
                fallback = false
            case "#else": fallback = essentialsTest
            case "#endif": fallback = false
            case "import" where words.count >= 2 && words[1] == "Foundation":
                if !fallback { return true }
            default: break
            }
        }
        return false
    }

    /// The modules a plugin worker loads (the plugin kit, its cryptography, the worker, the plugins and the
    /// template's sources) import FoundationEssentials, never the whole of Foundation: a worker that maps
    /// Foundation, its internationalization and ICU rests at about 6 MiB more.
    @Test func theWorkersSideImportsOnlyFoundationEssentials() throws {
        var files: [URL] = []
        for module in ["ProviderKit", "SwitchyardCrypto", "PluginWorkerCore", "SwitchyardPluginWorker"] {
            files += Self.swiftFiles(under: Self.root.appendingPathComponent("Sources/\(module)"))
        }
        let plugins = Self.root.appendingPathComponent("Plugins")
        let templateTests = plugins.appendingPathComponent("Templates/swift/Tests").path + "/"
        files += Self.swiftFiles(under: plugins).filter { !$0.path.hasPrefix(templateTests) }
        #expect(files.count > 100)
        let offenders = try files.filter { try Self.importsFoundationUnconditionally($0) }
            .map { String($0.path.dropFirst(Self.root.path.count + 1)) }
        #expect(offenders.isEmpty, "import Foundation on the worker's side:\n\(offenders.joined(separator: "\n"))")
    }

    @Test func everyImportIsAllowed() throws {
        let rows = try Self.allowedImports()
        let firstParty = try Self.firstParty()
        var violations: [String] = []
        for module in firstParty.sorted() {
            let allowed = rows[module] ?? []
            for file in Self.swiftFiles(under: Self.root.appendingPathComponent("Sources/\(module)")) {
                for imported in try Self.imports(of: file)
                where (firstParty.contains(imported) || Self.isPluginModule(imported)) && imported != module
                    && !allowed.contains(imported)
                {
                    violations.append("\(file.path.dropFirst(Self.root.path.count + 1)) imports \(imported)")
                }
            }
        }
        // The templates of `plugins new` are plugin packages of their own, tests included, with a row of their own.
        let templates = Self.root.appendingPathComponent("Plugins/Templates").path + "/"
        let plugins = Self.root.appendingPathComponent("Plugins")
        for file in Self.swiftFiles(under: plugins) {
            let allowed = rows[file.path.hasPrefix(templates) ? "Plugins/Templates/*" : "Plugins/*"] ?? []
            for imported in try Self.imports(of: file)
            where firstParty.contains(imported) && !allowed.contains(imported) {
                violations.append("\(file.path.dropFirst(Self.root.path.count + 1)) imports \(imported)")
            }
        }
        #expect(violations.isEmpty, "imports ARCHITECTURE.md does not allow:\n\(violations.joined(separator: "\n"))")
    }
}
