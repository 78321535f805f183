import CSwitchyardPlugin
import Foundation
import Logging
import ProviderKit

/// Opens plugin files and checks them, in this order: the digest gate of pinned mode, `dlopen`, the
/// entry symbol, `abi_version` (before anything else in the table is read), `struct_size`, the
/// manifest (its `abiVersion` too), then the policy for the plugin's id and digest.
///
/// Every file is copied under a unique name into a private shadow directory and the copy is opened
/// with `RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE`: opening the same path twice would return the old
/// image. Images are never closed.
public struct PluginLoader: Sendable {
    /// Where the opened copies live.
    public let shadowDirectory: String
    private let logger: Logger

    /// Creates a loader.
    ///
    /// - Parameters:
    ///   - shadowDirectory: A directory for the opened copies, created with mode 0700 if missing; `nil`
    ///     makes a fresh private directory under the system's temporary directory.
    ///   - logger: Where load and refusal lines go.
    public init(shadowDirectory: String? = nil, logger: Logger) throws {
        if let shadowDirectory {
            try FileManager.default.createDirectory(
                atPath: shadowDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
            )
            self.shadowDirectory = shadowDirectory
        } else {
            self.shadowDirectory = try ShadowCopy.makePrivateDirectory()
        }
        self.logger = logger
    }

    /// Loads and checks the plugin file at `path`.
    ///
    /// - Parameters:
    ///   - path: The `.so` file in the plugins directory.
    ///   - policy: Which ids and digests may load.
    ///   - hostServices: What the plugin instance may call.
    ///   - now: The load time to record.
    /// - Throws: ``PluginRefusal`` with a stable code; a refusal never crashes the host.
    public func load(
        file path: String, policy: PluginPolicy, hostServices: any HostServices, now: Date = Date()
    ) throws(PluginRefusal) -> LoadedPlugin {
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw refused(path, PluginRefusal(.garbageFile, "the file cannot be read"))
        }
        return try load(
            file: path, contents: contents, sha256: FileDigest.sha256Hex(contents), policy: policy,
            hostServices: hostServices, now: now
        )
    }

    /// Loads a plugin from bytes already read (and hashed) from `path`. `veto` may refuse the plugin
    /// after every check passed and before an instance is created.
    func load(
        file path: String, contents: Data, sha256: String, policy: PluginPolicy, hostServices: any HostServices,
        now: Date, veto: (PluginManifest) -> PluginRefusal? = { _ in nil }
    ) throws(PluginRefusal) -> LoadedPlugin {
        guard policy.mayOpen(sha256: sha256) else {
            throw refused(path, PluginRefusal(.digestMismatch, "the file's SHA-256 is not pinned in the policy"))
        }
        let copy: String
        do {
            copy = try ShadowCopy.store(contents, named: path, sha256: sha256, into: shadowDirectory)
        } catch {
            throw refused(path, PluginRefusal(.garbageFile, "the file could not be copied for loading"))
        }
        do throws(PluginRefusal) {
            let table = try PluginImage.open(copy)
            let manifest = try PluginImage.manifest(of: table)
            switch policy.evaluate(id: manifest.id, sha256: sha256) {
            case .allowed:
                break
            case .idNotAllowed:
                throw PluginRefusal(.notAllowed, "plugin id \(manifest.id) is not allowed by the policy")
            case .digestNotListed:
                throw PluginRefusal(.digestMismatch, "the file's SHA-256 is not listed for plugin \(manifest.id)")
            }
            if let refusal = veto(manifest) {
                throw refusal
            }
            let plugin = try instantiate(
                table: table, manifest: manifest, file: path, sha256: sha256, hostServices: hostServices, now: now)
            logger.info(
                "plugin loaded",
                metadata: [
                    "plugin.id": "\(manifest.id)", "plugin.version": "\(manifest.version)", "plugin.file": "\(path)",
                    "plugin.sha256": "\(sha256)",
                ]
            )
            return plugin
        } catch {
            // The image (if any) stays mapped but idle; its copy is no longer needed.
            try? FileManager.default.removeItem(atPath: copy)
            throw refused(path, error)
        }
    }

    private func refused(_ path: String, _ refusal: PluginRefusal) -> PluginRefusal {
        logger.warning(
            "plugin refused",
            metadata: [
                "plugin.file": "\(path)", "plugin.refusal.code": "\(refusal.code.rawValue)",
                "plugin.refusal.reason": "\(refusal.reason)",
            ]
        )
        return refusal
    }
}
