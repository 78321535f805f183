import ArgumentParser
import Foundation
import Logging
import SwitchyardApp
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardStore

extension ServeOptions {
    /// Refuses to start when the keyring does not open a secret already stored (a wrong SWITCHYARD_KEK or
    /// `--kek-file`, or a previous key missing), rather than failing at the first payment that needs it.
    package static func requireKeyringOpensStoredSecrets(_ runtime: SwitchyardRuntime) async throws {
        do {
            _ = try await runtime.store.openStoredSecret()
        } catch let error as StoreError {
            await runtime.shutdown()
            throw ValidationError(
                "the key-encryption key does not open the secrets stored in this database (\(error)); check "
                    + "SWITCHYARD_KEK or --kek-file (and, during a key rotation, SWITCHYARD_KEK_PREVIOUS or "
                    + "--kek-previous-file)")
        }
    }

    /// SWITCHYARD_OPERATOR_TOKEN when set, else the contents of the file SWITCHYARD_OPERATOR_TOKEN_FILE names (a
    /// compose or Kubernetes secret, trailing whitespace trimmed); refused when both are set, when the file
    /// cannot be read, or when the token is weak (no message shows it).
    package static func configuredOperatorToken(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> String? {
        let direct = environment["SWITCHYARD_OPERATOR_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        let file = environment["SWITCHYARD_OPERATOR_TOKEN_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        let token: String
        switch (direct, file) {
        case (nil, nil):
            return nil
        case (.some, .some):
            throw ValidationError("set SWITCHYARD_OPERATOR_TOKEN or SWITCHYARD_OPERATOR_TOKEN_FILE, not both")
        case (.some(let value), nil):
            token = value
        case (nil, .some(let path)):
            guard let contents = FileManager.default.contents(atPath: path),
                let text = String(data: contents, encoding: .utf8)
            else {
                throw ValidationError("SWITCHYARD_OPERATOR_TOKEN_FILE cannot be read: \(path)")
            }
            token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let problem = OperatorToken.problem(token) {
            let source = file == nil ? "SWITCHYARD_OPERATOR_TOKEN" : "SWITCHYARD_OPERATOR_TOKEN_FILE"
            throw ValidationError("\(source) refused: \(problem)")
        }
        return token
    }

    /// The embedded default's key-encryption key: SWITCHYARD_KEK, else `--kek-file` (generated there when
    /// missing, nothing written to the data directory), else `<data-dir>/kek` with a warning.
    package static func embeddedSecretBox(_ options: DatabaseOptions, dataDirectory: String, logger: Logger) throws
        -> SecretBox
    {
        if let configured = try CommandSupport.secretBox(options, generate: true) { return configured }
        let path = dataDirectory + "/kek"
        logger.warning(
            "the key-encryption key is kept in the data directory, beside the data it protects; pass --kek-file to keep it elsewhere",
            metadata: ["kek.file": "\(path)"])
        return try CommandSupport.secretBox(
            current: try StateFile.secret(at: path, make: CommandSupport.newKEK), options)
    }
}
