import Foundation
import ProviderSandbox
import Testing

/// The provider registrations: every emulator the server hosts, every `switchyard sandbox` option and every
/// demo merchant comes from `SandboxRegistration.all`.
@Suite struct SandboxRegistrationTests {
    /// A secret store in memory that counts what it had to make.
    final class Secrets: @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [String: String] = [:]
        private(set) var made = 0

        var store: SandboxDemoSecrets {
            SandboxDemoSecrets { name, make in
                self.lock.withLock {
                    if let known = self.kept[name] { return known }
                    let value = make()
                    self.kept[name] = value
                    self.made += 1
                    return value
                }
            }
        }
    }

    @Test func registrationsAreUniqueAndNameTheirPluginLibraries() {
        let all = SandboxRegistration.all
        #expect(!all.isEmpty)
        #expect(Set(all.map(\.name)).count == all.count)
        #expect(Set(all.map(\.pluginID)).count == all.count)
        #expect(Set(all.flatMap(\.options).map(\.name)).count == all.flatMap(\.options).count)
        for registration in all {
            #expect(registration.pluginLibrary == "lib\(registration.pluginProduct).so")
            #expect(registration.pluginProduct.hasSuffix("Plugin"), "\(registration.name)")
            #expect(SandboxRegistration.named(registration.name)?.pluginID == registration.pluginID)
        }
        #expect(SandboxRegistration.named("nobody") == nil)
    }

    @Test func theServerMountsEveryRegisteredEmulatorAndItsAdminSurface() async throws {
        let server = SandboxServer(configuration: SandboxConfiguration(), logger: quietLogger)
        try await whileServing(server) { port in
            for registration in SandboxRegistration.all {
                let faults = try await send(.get, "http://127.0.0.1:\(port)/_sandbox/\(registration.name)/faults")
                #expect(faults.status == 200, "\(registration.name)")
                #expect((faults.json as? [Any])?.isEmpty == true, "\(registration.name)")
            }
            let unknown = try await send(.get, "http://127.0.0.1:\(port)/_sandbox/nobody/faults")
            #expect(unknown.status == 404)
        }
    }

    @Test func commandLineOptionsConfigureTheirEmulators() throws {
        let configuration = try SandboxConfiguration.commandLine([
            "--citcon-merchant", "m1:pk1:ipn1", "--citcon-merchant=m2:pk2:ipn2", "--citcon-charge-lifetime", "60",
            "--worldline-merchant", "W1:K1:S1:WK1:WS1:http://127.0.0.1:9/hook", "--sips-merchant", "002:secret:3",
        ])
        #expect(configuration.citcon.merchants.map(\.id) == ["m1", "m2"])
        #expect(configuration.citcon.merchants.last?.ipnSecret == "ipn2")
        #expect(configuration.citcon.pendingChargeLifetime == 60)
        let worldline = try #require(configuration.worldlineDirect.merchants.first)
        #expect(worldline.webhookSecret == "WS1")
        #expect(worldline.webhookURL == "http://127.0.0.1:9/hook")
        #expect(configuration.sips.merchants == [.init(merchantId: "002", secretKey: "secret", keyVersion: 3)])
        #expect(configuration.antom.merchants.isEmpty)
    }

    @Test func withoutOptionsTheEmulatorsKeepTheirCommandLineDefaults() throws {
        let configuration = try SandboxConfiguration.commandLine([])
        #expect(configuration.citcon.merchants.isEmpty)
        #expect(configuration.citcon.pendingChargeLifetime == 1800)
        #expect(configuration.sips.merchants == WorldlineSipsSandboxMerchant.publicTestMerchants)
    }

    @Test func badArgumentsAreRefusedNamingTheOption() {
        let cases: [[String]: String] = [
            ["--citcon-merchant", "only-an-id"]: "--citcon-merchant takes id:private_key:ipn_secret",
            ["--citcon-charge-lifetime", "0"]: "--citcon-charge-lifetime must be positive",
            ["--sips-merchant", "id:key:v2"]: "--sips-merchant takes merchant_id:secret_key[:key_version]",
            ["--antom-merchant", "CLIENT:/nonexistent/key.pem"]: "--antom-merchant takes client_id:public_key_file",
            ["--worldline-merchant", "a:b:c"]: "--worldline-merchant takes merchant_id:api_key_id",
            ["--nobody-merchant", "x"]: "unknown option '--nobody-merchant'",
            ["--citcon-merchant"]: "--citcon-merchant needs a value",
            ["stray"]: "unexpected argument 'stray'",
        ]
        for (arguments, message) in cases {
            #expect(throws: SandboxCommandLineError.self, "\(arguments)") {
                _ = try SandboxConfiguration.commandLine(arguments)
            }
            do {
                _ = try SandboxConfiguration.commandLine(arguments)
            } catch {
                #expect(error.message.hasPrefix(message), "\(arguments): \(error.message)")
            }
        }
    }

    @Test func anUnreadableAntomKeyIsRefusedByTheEmulatorsCheck() throws {
        let file = NSTemporaryDirectory() + "antom-key-" + UUID().uuidString
        try Data("not a key".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        do {
            _ = try SandboxConfiguration.commandLine(["--antom-merchant", "CLIENT_1:\(file)"])
            Issue.record("an unreadable key was accepted")
        } catch {
            #expect(error.message.hasPrefix("--antom-merchant: "), "\(error.message)")
        }
    }

    @Test func everyRegistrationHasADemoMerchantWhoseSecretsAreKept() throws {
        let secrets = Secrets()
        let demos = try SandboxRegistration.all.map { try $0.demo(secrets: secrets.store) }
        let made = secrets.made
        #expect(made > 0)
        // Asked again (a restart), the same secrets come back and nothing new is made.
        let again = try SandboxRegistration.all.map { try $0.demo(secrets: secrets.store) }
        #expect(secrets.made == made)
        #expect(demos.map(\.credentials) == again.map(\.credentials))
        #expect(Set(demos.map(\.stateKey)).count == demos.count)
        for demo in demos {
            #expect(!demo.credentials.isEmpty, "\(demo.stateKey)")
            #expect(!demo.route.name.isEmpty, "\(demo.stateKey)")
        }

        let configuration = SandboxConfiguration.demo(demos)
        let citcon = try #require(demos.first { $0.stateKey == "citcon" })
        #expect(configuration.citcon.merchants.map(\.privateKey) == [citcon.credentials["private_key"]])
        #expect(configuration.worldlineDirect.merchants.count == 1)
        #expect(configuration.antom.merchants.count == 1)
        #expect(configuration.antom.privateKeyPEM != nil)
        #expect(configuration.sips.merchants == WorldlineSipsSandboxMerchant.publicTestMerchants)
    }

    @Test func demoCredentialsAreCheckedAgainstThePluginsFields() throws {
        let demo = try #require(try SandboxRegistration.named("citcon")?.demo(secrets: Secrets().store))
        #expect(demo.credentialMismatch(fields: ["private_key", "ipn_secret"], required: ["private_key"]) == nil)
        #expect(
            demo.credentialMismatch(fields: ["private_key"], required: ["private_key"])
                == "not in the plugin's manifest: ipn_secret")
        #expect(
            demo.credentialMismatch(fields: ["private_key", "ipn_secret", "key"], required: ["key", "private_key"])
                == "required by the plugin's manifest but missing: key")
    }

    @Test func everyProviderFolderIsListedByTheBuild() throws {
        let sandbox = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/ProviderSandbox").standardized
        let folders = try FileManager.default.contentsOfDirectory(atPath: sandbox.path).filter {
            FileManager.default.fileExists(atPath: sandbox.appendingPathComponent("\($0)/\($0)Registration.swift").path)
        }
        #expect(folders.count >= 4)
        #expect(SandboxRegistration.all.count == folders.count)
        let products = Set(SandboxRegistration.all.map(\.pluginProduct))
        for folder in folders { #expect(products.contains(folder + "Plugin"), "\(folder)") }
    }

    @Test func narrowerDemoRoutesAreMoreSpecific() throws {
        let secrets = Secrets().store
        let routes = try SandboxRegistration.all.map { try $0.demo(secrets: secrets).route }
        let byName = Dictionary(uniqueKeysWithValues: zip(SandboxRegistration.all.map(\.name), routes))
        // Cards in France must be tried before cards in euros anywhere.
        let sips = try #require(byName.first { $0.value.countries == ["FR"] }?.value)
        let euros = try #require(byName.first { $0.value.countries.isEmpty && $0.value.currencies == ["EUR"] }?.value)
        #expect(sips.specificity > euros.specificity)
    }
}
