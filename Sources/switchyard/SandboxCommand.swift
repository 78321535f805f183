import ArgumentParser
import Foundation
import ProviderSandbox

/// `switchyard sandbox`: runs the provider sandboxes alone.
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox", abstract: "Run the provider sandboxes on loopback.")

    @Option(help: "Port to listen on.")
    var port: Int = 8090

    @Option(help: "Citcon merchant as id:private_key:ipn_secret (repeatable).")
    var citconMerchant: [String] = []

    func run() async throws {
        let logger = CommandSupport.logger("switchyard.sandbox")
        var merchants: [CitconSandboxMerchant] = []
        for spec in citconMerchant {
            let parts = spec.split(separator: ":", maxSplits: 2).map(String.init)
            guard parts.count == 3 else { throw ValidationError("--citcon-merchant takes id:private_key:ipn_secret") }
            merchants.append(CitconSandboxMerchant(id: parts[0], privateKey: parts[1], ipnSecret: parts[2]))
        }
        let server = SandboxServer(
            configuration: SandboxConfiguration(citcon: CitconSandboxConfiguration(merchants: merchants)),
            logger: logger)
        try await server.run(host: "127.0.0.1", port: port) { port in
            logger.info("sandbox listening", metadata: ["http.port": "\(port)"])
        }
    }
}
