import Logging
import ProviderSandbox
import ServiceLifecycle
import SwitchyardApp
import SwitchyardCluster
import SwitchyardCommands
import SwitchyardStore

/// The embedded default of `switchyard serve` and `switchyard migrate`: the private cluster in the data
/// directory, the development policy, the provider sandboxes (in this process unless `sandboxURL` names
/// running ones) and the demo tenant.
struct DemoEmbeddedDefault: EmbeddedDefault {
    var sandboxPort: Int?
    var sandboxURL: String?

    func policyFile(dataDirectory: String, logger: Logger) throws -> String {
        try DevelopmentPolicy.write(dataDirectory: dataDirectory, logger: logger)
    }

    func startDatabase(dataDirectory: String, logger: Logger) async throws -> any EmbeddedDatabaseHandle {
        try await EmbeddedDatabase.start(dataDirectory: dataDirectory, logger: logger)
    }

    func services(
        runtime: SwitchyardRuntime, dataDirectory: String, publicURL: String, operatorToken: String, logger: Logger
    ) async throws -> [any Service] {
        var services: [any Service] = []
        let merchants = try DemoSandboxMerchants(dataDirectory: dataDirectory)
        let sandboxURL: String
        if let external = self.sandboxURL {
            sandboxURL = external
        } else {
            let sandboxPort = self.sandboxPort ?? PostgresCluster.freePort()
            let sandbox = SandboxServer(
                configuration: merchants.sandboxConfiguration, logger: Logger(label: "switchyard.sandbox"))
            services.append(
                TaskService(name: "sandbox") {
                    try await sandbox.run(host: "127.0.0.1", port: sandboxPort) { _ in }
                })
            sandboxURL = "http://127.0.0.1:\(sandboxPort)"
        }
        let state = try await DemoSeed.seed(
            store: runtime.store, dataDirectory: dataDirectory, serverURL: publicURL,
            sandboxURL: sandboxURL, operatorToken: operatorToken, merchants: merchants,
            manifests: { await runtime.gateway.manifest(pluginId: $0) }, logger: logger)
        logger.info(
            "embedded default ready",
            metadata: ["demo.file": "\(dataDirectory)/demo.json", "sandbox.url": "\(state.sandboxURL)"])
        return services
    }
}
