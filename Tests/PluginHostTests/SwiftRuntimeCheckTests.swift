import Foundation
import SwitchyardTestSupport
import Testing

@testable import PluginHost

/// A Swift plugin must run on the runtime it was built for: the host reads each file before anything of it
/// runs and refuses one built by another toolchain, or carrying a runtime of its own, naming both runtimes.
@Suite("Swift runtime check")
struct SwiftRuntimeCheckTests {
    private let development = PluginPolicy(mode: .development, allowsAnyID: true)

    @Test func aBundledSwiftPluginSharesTheWorkersRuntime() throws {
        let file = BuiltProducts.directory + "/libCitconPlugin.so"
        let image = try #require(ELFImage(try Data(contentsOf: URL(fileURLWithPath: file))))
        #expect(image.needed.contains("libswiftCore.so"))
        #expect(image.definedSymbols.contains("switchyard_plugin_entry"))
        let host = SwiftRuntimeCheck.Runtime.current
        #expect(host.library?.hasSuffix("/libswiftCore.so") == true)
        #expect(host.toolchain != nil)
        #expect(SwiftRuntimeCheck.toolchain(in: image.comments) == host.toolchain)
        #expect(SwiftRuntimeCheck(host: host).refusal(for: image, at: file) == nil)
    }

    @Test func aCPluginHasNoSwiftRuntimeToCheck() throws {
        let file = try FixturePlugins.echo()
        let image = try #require(ELFImage(try Data(contentsOf: URL(fileURLWithPath: file))))
        #expect(!image.needed.contains("libswiftCore.so"))
        #expect(SwiftRuntimeCheck(host: .current).refusal(for: image, at: file) == nil)
    }

    @Test func aPluginOfAnotherToolchainIsRefusedNamingBothRuntimes() async throws {
        let directory = try SwiftRuntimeFixtures.otherToolchain()
        let plugin = try SwiftRuntimeFixtures.pluginOfOtherToolchain(in: directory)
        let refusal = try #require(await refusal(plugin))
        #expect(refusal.code == .swiftRuntimeMismatch)
        let host = SwiftRuntimeCheck.Runtime.current
        #expect(refusal.reason.contains(directory + "/libswiftCore.so"), "\(refusal.reason)")
        #expect(refusal.reason.contains("swiftlang/llvm-project 0123456789ab"), "\(refusal.reason)")
        #expect(refusal.reason.contains(try #require(host.library)), "\(refusal.reason)")
        #expect(refusal.reason.contains(try #require(host.toolchain)), "\(refusal.reason)")
    }

    @Test func aCopyOfTheWorkersOwnRuntimeIsTheSameRuntime() async throws {
        let directory = try SwiftRuntimeFixtures.temporaryDirectory()
        let host = try #require(SwiftRuntimeCheck.Runtime.current.library)
        try FileManager.default.copyItem(atPath: host, toPath: directory + "/libswiftCore.so")
        let plugin = try SwiftRuntimeFixtures.compile(
            into: directory + "/libSame.so", sources: ["Tests/Fixtures/Plugins/echo_plugin.c"],
            flags: ["-L" + directory, "-Wl,--no-as-needed", "-lswiftCore", "-Wl,-rpath," + directory])
        #expect(try await refusal(plugin) == nil)
    }

    @Test func aPluginCarryingItsOwnRuntimeIsRefused() async throws {
        let directory = try SwiftRuntimeFixtures.temporaryDirectory()
        let plugin = try SwiftRuntimeFixtures.compile(
            into: directory + "/libStatic.so",
            sources: ["Tests/Fixtures/Plugins/echo_plugin.c", SwiftRuntimeFixtures.folder + "/static_runtime.c"],
            flags: [])
        let refusal = try #require(await refusal(plugin))
        #expect(refusal.code == .swiftRuntimeMismatch)
        #expect(refusal.reason.contains("-static-stdlib"), "\(refusal.reason)")
        #expect(refusal.reason.contains(try #require(SwiftRuntimeCheck.Runtime.current.library)), "\(refusal.reason)")
    }

    @Test func damagedFilesNeverCrashTheReader() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try FixturePlugins.echo())))
        #expect(ELFImage(Data(bytes)) != nil)
        var generator = SystemRandomNumberGenerator()
        // Every truncation at 64-byte steps, and copies with bytes of the headers and tables overwritten.
        for length in stride(from: 0, to: bytes.count, by: 64) {
            _ = ELFImage(Data(bytes[0..<length]))
        }
        for _ in 0..<2_000 {
            var damaged = bytes
            for _ in 0..<8 {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            damaged[Int.random(in: 0..<min(64, damaged.count), using: &generator)] = 0xff
            _ = ELFImage(Data(damaged))
        }
        #expect(ELFImage(Data("not an ELF file".utf8)) == nil)
    }

    private func refusal(_ file: String) async throws -> PluginRefusal? {
        let loader = try scanningLoader()
        do {
            _ = try await loader.load(file: file, policy: development, hostServices: RecordingHostServices())
            return nil
        } catch {
            return error
        }
    }
}
