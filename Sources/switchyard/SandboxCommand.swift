import ArgumentParser
import Foundation
import ProviderSandbox

/// `switchyard sandbox`: runs the provider sandboxes alone.
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox", abstract: "Run the provider sandboxes on loopback.")

    @Option(help: "Port to listen on (0 picks a free one).")
    var port: Int = 8090

    @Option(help: "Write the bound port to this file once listening.")
    var portFile: String?

    @Option(help: "Citcon merchant as id:private_key:ipn_secret (repeatable).")
    var citconMerchant: [String] = []

    @Option(
        help: """
            Worldline Direct merchant as merchant_id:api_key_id:secret_api_key:webhook_key_id:webhook_secret[:webhook_url] \
            (repeatable).
            """)
    var worldlineMerchant: [String] = []

    @Option(help: "Antom merchant as client_id:path_of_the_merchant_public_key_file (PEM or base64 SPKI; repeatable).")
    var antomMerchant: [String] = []

    @Option(
        help: """
            Worldline Sips merchant as merchant_id:secret_key[:key_version] (repeatable; default: the public SIMU \
            test merchants 002001000000001 to 002001000000003).
            """)
    var sipsMerchant: [String] = []

    @Option(help: "Seconds a Citcon charge waits for the app's confirm before it expires (default 1800).")
    var citconChargeLifetime: Int = 1800

    func validate() throws {
        guard citconChargeLifetime > 0 else { throw ValidationError("--citcon-charge-lifetime must be positive") }
    }

    func run() async throws {
        let logger = CommandSupport.logger("switchyard.sandbox")
        let configuration = SandboxConfiguration(
            citcon: CitconSandboxConfiguration(
                merchants: try citconMerchant.map(Self.citcon),
                pendingChargeLifetime: TimeInterval(citconChargeLifetime)),
            worldlineDirect: WorldlineDirectSandboxConfiguration(merchants: try worldlineMerchant.map(Self.worldline)),
            antom: AntomSandboxConfiguration(merchants: try antomMerchant.map(Self.antom)),
            sips: WorldlineSipsSandboxConfiguration(
                merchants: sipsMerchant.isEmpty
                    ? WorldlineSipsSandboxMerchant.publicTestMerchants : try sipsMerchant.map(Self.sips)))
        do {
            try configuration.antom.validate()
        } catch {
            throw ValidationError("--antom-merchant: \(error.message)")
        }
        let server = SandboxServer(configuration: configuration, logger: logger)
        let portFile = self.portFile
        try await server.run(host: "127.0.0.1", port: port) { port in
            if let portFile { try? StateFile.write("\(port)\n", to: portFile) }
            logger.info("sandbox listening", metadata: ["http.port": "\(port)"])
        }
    }

    static func citcon(_ spec: String) throws -> CitconSandboxMerchant {
        let parts = spec.split(separator: ":", maxSplits: 2).map(String.init)
        guard parts.count == 3, !parts.contains(where: \.isEmpty) else {
            throw ValidationError("--citcon-merchant takes id:private_key:ipn_secret")
        }
        return CitconSandboxMerchant(id: parts[0], privateKey: parts[1], ipnSecret: parts[2])
    }

    static func sips(_ spec: String) throws -> WorldlineSipsSandboxMerchant {
        let parts = spec.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, !parts[0].isEmpty, !parts[1].isEmpty,
            parts.count == 2 || Int(parts[2]) != nil
        else { throw ValidationError("--sips-merchant takes merchant_id:secret_key[:key_version]") }
        return WorldlineSipsSandboxMerchant(
            merchantId: parts[0], secretKey: parts[1], keyVersion: parts.count == 3 ? Int(parts[2])! : 1)
    }

    static func antom(_ spec: String) throws -> AntomSandboxMerchant {
        let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty,
            let key = try? String(contentsOfFile: parts[1], encoding: .utf8)
        else {
            throw ValidationError("--antom-merchant takes client_id:public_key_file (a readable PEM or base64 file)")
        }
        return AntomSandboxMerchant(clientId: parts[0], merchantPublicKey: key)
    }

    static func worldline(_ spec: String) throws -> WorldlineDirectSandboxMerchant {
        let parts = spec.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 5, !parts.prefix(5).contains(where: \.isEmpty) else {
            throw ValidationError(
                "--worldline-merchant takes merchant_id:api_key_id:secret_api_key:webhook_key_id:webhook_secret[:webhook_url]"
            )
        }
        return WorldlineDirectSandboxMerchant(
            merchantId: parts[0], apiKeyId: parts[1], secretApiKey: parts[2], webhookKeyId: parts[3],
            webhookSecret: parts[4], webhookURL: parts.count == 6 && !parts[5].isEmpty ? parts[5] : nil)
    }
}
