import CSwitchyardPlugin
import Foundation
import Logging
import PluginWorkerCore
import ProviderKit

/// Examines plugin files and opens the accepted ones, in this order: the digest gate of pinned mode,
/// a private copy, a scan of the copy in a disposable scanner process (entry symbol, `abi_version`
/// before anything else in the table, `struct_size`, the manifest and its `abiVersion`), then the
/// policy for the plugin's id and digest. Only then, and only for a file whose id the caller decided
/// to serve, is the copy opened (or started) by the server.
///
/// Every file is copied under a unique name into a private shadow directory and the copy is scanned
/// and opened with `RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE`: opening the same path twice would return
/// the old image. Images are never closed. Without a scanner executable every file is refused
/// (`scanner_unavailable`): files are never opened in the server instead.
public struct PluginLoader: Sendable {
    /// Where the opened copies live.
    public let shadowDirectory: String
    private let logger: Logger
    private let scanner: PluginScanner?
    private let runtimeCheck = SwiftRuntimeCheck(host: .current)

    /// Creates a loader.
    ///
    /// - Parameters:
    ///   - shadowDirectory: A directory for the opened copies, created with mode 0700 if missing; `nil`
    ///     makes a fresh private directory under the system's temporary directory.
    ///   - executable: The `switchyard` executable whose `plugin-scan` examines files; `nil` refuses
    ///     every file.
    ///   - scanTimeout: How long one scan may take.
    ///   - logger: Where load and refusal lines go.
    public init(
        shadowDirectory: String? = nil, executable: PluginExecutable?, scanTimeout: Duration = .seconds(5),
        logger: Logger
    ) throws {
        if let shadowDirectory {
            try FileManager.default.createDirectory(
                atPath: shadowDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
            )
            self.shadowDirectory = shadowDirectory
        } else {
            self.shadowDirectory = try ShadowCopy.makePrivateDirectory()
        }
        self.logger = logger
        scanner = executable.map { PluginScanner(executable: $0, timeout: scanTimeout, logger: logger) }
    }

    /// Examines, checks and opens the plugin file at `path`.
    ///
    /// - Parameters:
    ///   - path: The `.so` file in the plugins directory.
    ///   - policy: Which ids and digests may load.
    ///   - hostServices: What the plugin instance may call.
    ///   - now: The load time to record.
    /// - Throws: ``PluginRefusal`` with a stable code; a refusal never crashes the host.
    public func load(
        file path: String, policy: PluginPolicy, hostServices: any HostServices, now: Date = Date()
    ) async throws(PluginRefusal) -> LoadedPlugin {
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw refused(path, PluginRefusal(.garbageFile, "the file cannot be read"))
        }
        let candidate = try await examine(
            file: path, contents: contents, sha256: FileDigest.sha256Hex(contents), policy: policy)
        return try await open(candidate, hostServices: hostServices, now: now)
    }

    /// Examines, checks and opens the plugin file at `path` to run under `settings` (its worker executable,
    /// isolation, deadline and cancel grace), outside a registry: `switchyard plugins check` loads a file
    /// this way, as the server would.
    public func load(
        file path: String, policy: PluginPolicy, hostServices: any HostServices, settings: PluginRunSettings,
        now: Date = Date()
    ) async throws(PluginRefusal) -> LoadedPlugin {
        let result: Result<LoadedPlugin, PluginRefusal> = await PluginRunSettings.$current.withValue(settings) {
            do throws(PluginRefusal) {
                return .success(try await load(file: path, policy: policy, hostServices: hostServices, now: now))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The first step of a load: copies the bytes read (and hashed) from `path`, scans the copy in a
    /// scanner process and checks the scanned manifest against the policy. Nothing of the file runs in
    /// this process.
    func examine(
        file path: String, contents: Data, sha256: String, policy: PluginPolicy
    ) async throws(PluginRefusal) -> PluginCandidate {
        guard policy.mayOpen(sha256: sha256) else {
            throw refused(path, PluginRefusal(.digestMismatch, "the file's SHA-256 is not pinned in the policy"))
        }
        if let image = ELFImage(contents), let reason = runtimeCheck.refusal(for: image, at: path) {
            throw refused(path, PluginRefusal(.swiftRuntimeMismatch, reason))
        }
        guard let scanner else {
            throw refused(
                path,
                PluginRefusal(.scannerUnavailable, "no scanner executable is configured: plugins cannot be examined"))
        }
        let copy: String
        do {
            copy = try ShadowCopy.store(contents, named: path, sha256: sha256, into: shadowDirectory)
        } catch {
            throw refused(path, PluginRefusal(.garbageFile, "the file could not be copied for loading"))
        }
        do throws(PluginRefusal) {
            let report = try await scanner.scan(copy)
            guard let manifest = report.manifest, let table = report.table else {
                throw PluginRefusal(.scanBadOutput, "the scan report has no manifest")
            }
            switch policy.evaluate(id: manifest.id, sha256: sha256) {
            case .allowed:
                break
            case .idNotAllowed:
                throw PluginRefusal(.notAllowed, "plugin id \(manifest.id) is not allowed by the policy")
            case .digestNotListed:
                throw PluginRefusal(.digestMismatch, "the file's SHA-256 is not listed for plugin \(manifest.id)")
            }
            logger.info(
                "plugin scanned",
                metadata: [
                    "plugin.id": "\(manifest.id)", "plugin.file": "\(path)", "plugin.sha256": "\(sha256)",
                    "plugin.table.size": "\(table.structSize)", "plugin.sandboxed": "\(report.sandbox.restricted)",
                ])
            return PluginCandidate(file: path, sha256: sha256, copy: copy, manifest: manifest, table: table)
        } catch {
            try? FileManager.default.removeItem(atPath: copy)
            throw refused(path, error)
        }
    }

    /// The last step of a load, for a candidate whose id the caller decided to serve, under the current run
    /// settings: starts its worker (which opens the copy), or opens the copy and creates the instance here,
    /// on a thread of its own (the plugin's `create` must never hold a thread of the cooperative pool).
    func open(_ candidate: PluginCandidate, hostServices: any HostServices, now: Date) async throws(PluginRefusal)
        -> LoadedPlugin
    {
        let settings = PluginRunSettings.current ?? PluginRunSettings()
        do throws(PluginRefusal) {
            let plugin: LoadedPlugin
            if settings.isolation(for: candidate.id) == .process {
                // The worker process opens the copy: the server never maps the plugin's code.
                plugin = try await instantiateInWorker(
                    manifest: candidate.manifest, file: candidate.file, copy: candidate.copy,
                    sha256: candidate.sha256, hostServices: hostServices, now: now, settings: settings)
            } else {
                let opened: Result<LoadedPlugin, PluginRefusal> = await PluginThreads.run { [self] in
                    do throws(PluginRefusal) {
                        return .success(
                            try openInProcess(candidate, hostServices: hostServices, now: now, settings: settings))
                    } catch {
                        return .failure(error)
                    }
                }
                plugin = try opened.get()
            }
            logger.info(
                "plugin loaded",
                metadata: [
                    "plugin.id": "\(candidate.id)", "plugin.version": "\(candidate.manifest.version)",
                    "plugin.file": "\(candidate.file)", "plugin.sha256": "\(candidate.sha256)",
                ]
            )
            return plugin
        } catch {
            // The image (if any) stays mapped but idle; its copy is no longer needed.
            discard(candidate)
            throw refused(candidate.file, error)
        }
    }

    /// Opens the copy of `candidate` in this process and creates its instance on the calling thread.
    private func openInProcess(
        _ candidate: PluginCandidate, hostServices: any HostServices, now: Date, settings: PluginRunSettings
    ) throws(PluginRefusal) -> LoadedPlugin {
        let table = try PluginImage.open(candidate.copy)
        guard try PluginImage.manifest(of: table) == candidate.manifest else {
            throw PluginRefusal(.badManifest, "the plugin's manifest differs from the one its scan reported")
        }
        return try withUnsafePointer(to: table.entries) { (entries) throws(PluginRefusal) in
            try instantiateInProcess(
                table: entries, manifest: candidate.manifest, file: candidate.file, sha256: candidate.sha256,
                hostServices: hostServices, now: now, settings: settings)
        }
    }

    /// Removes the copy of a candidate that will not be opened.
    func discard(_ candidate: PluginCandidate) {
        try? FileManager.default.removeItem(atPath: candidate.copy)
    }

    /// Logs a refusal decided outside the loader (e.g. a duplicate id) like the loader's own.
    @discardableResult
    func refuse(_ candidate: PluginCandidate, _ refusal: PluginRefusal) -> PluginRefusal {
        discard(candidate)
        return refused(candidate.file, refusal)
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
