import CSwitchyardPlugin
import Foundation
import PluginHost
import PluginWorkerCore
import ProviderKit
import SwitchyardTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A plugin built against the first published header of ABI version 1 (`Tests/Fixtures/ABI/v1-first`,
/// frozen) keeps loading and working on this host, and the current header keeps that header's layout as
/// its prefix. docs/plugin-abi.md states the promise these tests hold the host to.
@Suite("Frozen ABI version 1 header")
struct FrozenHeaderTests {
    private static let frozenInclude = "Tests/Fixtures/ABI/v1-first"
    private let anyID = PluginPolicy(mode: .development, allowsAnyID: true)

    @Test func theFrozenHeaderIsUnchanged() throws {
        // The header of commit 86b016c, byte for byte. A new version of the header goes in
        // Sources/CSwitchyardPlugin/include; this file never changes.
        let path = FixturePlugins.repositoryRoot.appendingPathComponent(Self.frozenInclude + "/switchyard_plugin.h")
        #expect(
            try FixturePlugins.sha256(of: path.path)
                == "7ccd79b4beda0bdc1e1ccd4eed68a399f7daf3e5b2b855d00adb55686fc373f7")
    }

    @Test func theCExampleBuiltAgainstTheFrozenHeaderLoadsAndAuthorises() async throws {
        let file = try FixturePlugins.build("c_echo.c", in: "Plugins/Examples/c-echo", include: Self.frozenInclude)

        let copy = NSTemporaryDirectory() + "/switchyard-frozen-" + UUID().uuidString + ".so"
        try FileManager.default.copyItem(atPath: file, toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let report = try await PluginScanner(executable: switchyardExecutable, logger: .quiet).scan(copy)
        #expect(report.table?.abiVersion == 1)
        // The table as the frozen header declares it: struct_size is its sizeof there.
        #expect(report.table.map { String($0.structSize) } == (try Self.frozenLayout())["sizeof(sy_plugin_table)"])
        #expect(report.table?.entries == ["create", "destroy", "invoke", "cancel"])

        // The echo endpoint answers a JSON object (a body c-echo cannot read would make the payment unknown).
        let services = RecordingHostServices(
            result: OutboundResult(kind: .response, status: 200, body: Data(#"{"echo":"ok"}"#.utf8)))
        let plugin = try await scanningLoader().load(file: file, policy: anyID, hostServices: services)
        #expect(plugin.manifest.id == "c-echo")
        #expect(plugin.manifest.abiVersion == 1)
        #expect(plugin.manifest.flows == [.authorize, .sync])

        let outcome = try await plugin.authorize(.test, account: .test)
        #expect(outcome.kind == .authorized)
        #expect(outcome.providerPaymentId?.hasPrefix("c-echo-") == true)
        #expect(outcome.providerStatus == "200")
        // Its request went out through the host's http_send, with the account's credential.
        let sent = try #require(services.sent.first)
        #expect(services.sent.count == 1)
        #expect(sent.method == "POST")
        #expect(sent.url == AccountContext.test.baseURL)
        #expect(sent.headers.first { $0.name == "Authorization" }?.value == "Bearer k")
        #expect(sent.redactHeaders == ["Authorization"])
        #expect(services.logs.first?.message == "c-echo created")

        #expect(try await plugin.sync(.test, account: .test).kind == .succeeded)
    }

    @Test func theCurrentHeaderKeepsTheFrozenLayoutAsItsPrefix() throws {
        let frozen = try Self.frozenLayout()
        let current = Self.currentLayout()
        #expect(frozen.count == current.count, "\(frozen.count) fields and constants in the frozen header")
        for (name, value) in frozen.sorted(by: { $0.key < $1.key }) {
            if name.hasPrefix("sizeof(") {
                // The current tables may have grown at the end, never shrunk.
                let size = try #require(Int(value))
                let currentSize = try #require(current[name].flatMap { Int($0) }, "\(name) missing")
                #expect(currentSize >= size, "\(name): \(currentSize) now, \(size) in the frozen header")
            } else {
                #expect(current[name] == value, "\(name): \(current[name] ?? "absent") now, \(value) frozen")
            }
        }
        // A table compiled against the frozen header is large enough for this host.
        let frozenTableSize = try #require(frozen["sizeof(sy_plugin_table)"].flatMap { Int($0) })
        #expect(frozenTableSize >= PluginTable.minimumSize)
    }

    /// The frozen header's layout, as a C compiler lays it out: `name -> value` from `abi_layout.c`.
    private static func frozenLayout() throws -> [String: String] {
        let library = try FixturePlugins.build("abi_layout.c", in: "Tests/Fixtures/ABI", include: frozenInclude)
        let handle = try #require(dlopen(library, RTLD_NOW | RTLD_LOCAL), "abi_layout.so does not open")
        defer { dlclose(handle) }
        let symbol = try #require(dlsym(handle, "switchyard_abi_layout"), "no switchyard_abi_layout")
        typealias Report = @convention(c) () -> UnsafePointer<CChar>
        let text = String(cString: unsafeBitCast(symbol, to: Report.self)())
        var layout: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { layout[String(parts[0])] = String(parts[1]) }
        }
        return layout
    }

    /// The same items for the current header, as the host (Swift, through `CSwitchyardPlugin`) sees it.
    private static func currentLayout() -> [String: String] {
        var layout: [String: String] = [
            "SWITCHYARD_PLUGIN_ABI_VERSION": "\(SWITCHYARD_PLUGIN_ABI_VERSION)",
            "SWITCHYARD_PLUGIN_ENTRY_SYMBOL": SWITCHYARD_PLUGIN_ENTRY_SYMBOL,
            "SY_LOG_LEVELS": [SY_LOG_TRACE, SY_LOG_DEBUG, SY_LOG_INFO, SY_LOG_NOTICE, SY_LOG_WARNING, SY_LOG_ERROR]
                .map { "\($0)" }.joined(separator: " "),
            "sizeof(sy_plugin_table)": "\(MemoryLayout<sy_plugin_table>.size)",
            "sizeof(sy_host_services)": "\(MemoryLayout<sy_host_services>.size)",
        ]
        let table = sy_plugin_table()
        func tableField<T>(_ name: String, _ path: KeyPath<sy_plugin_table, T>) {
            let offset = MemoryLayout<sy_plugin_table>.offset(of: path).map { "\($0)" } ?? "none"
            layout["sy_plugin_table." + name] = "\(offset) \(MemoryLayout.size(ofValue: table[keyPath: path]))"
        }
        tableField("abi_version", \.abi_version)
        tableField("struct_size", \.struct_size)
        tableField("manifest_json", \.manifest_json)
        tableField("create", \.create)
        tableField("destroy", \.destroy)
        tableField("invoke", \.invoke)
        tableField("cancel", \.cancel)
        let services = sy_host_services()
        func servicesField<T>(_ name: String, _ path: KeyPath<sy_host_services, T>) {
            let offset = MemoryLayout<sy_host_services>.offset(of: path).map { "\($0)" } ?? "none"
            layout["sy_host_services." + name] = "\(offset) \(MemoryLayout.size(ofValue: services[keyPath: path]))"
        }
        servicesField("abi_version", \.abi_version)
        servicesField("struct_size", \.struct_size)
        servicesField("host_context", \.host_context)
        servicesField("http_send", \.http_send)
        servicesField("log", \.log)
        servicesField("now_ms", \.now_ms)
        return layout
    }
}
