import Foundation
import ProviderKit

/// A plugin that passed every check and has a live instance.
///
/// Calls cross the C ABI as JSON. Replacing a plugin leaves this value usable: calls already holding
/// it finish on the old image.
public struct LoadedPlugin: Sendable {
    /// What the plugin declared about itself.
    public let manifest: PluginManifest
    /// The plugin file in the plugins directory (not the private copy that was opened).
    public let filePath: String
    /// Lowercase hex SHA-256 of the file's bytes.
    public let sha256: String
    /// When it was loaded.
    public let loadedAt: Date

    let instance: any PluginInstance

    init(manifest: PluginManifest, filePath: String, sha256: String, loadedAt: Date, instance: any PluginInstance) {
        self.manifest = manifest
        self.filePath = filePath
        self.sha256 = sha256
        self.loadedAt = loadedAt
        self.instance = instance
    }

    /// Why the plugin serves nothing any more, if its worker crashed too often.
    public var quarantine: PluginQuarantine? { instance.quarantine }

    /// The plugin's id.
    public var id: String { manifest.id }

    /// Runs `flow` for `account` with `request` and decodes the plugin's result as `Res`.
    ///
    /// - Throws: ``PluginCallError`` with the plugin's error code (or `not_supported` when the manifest
    ///   does not declare `flow`, `bad_reply` when the reply does not decode; the host's codes when the
    ///   plugin gave no answer: `deadline_before_send` / `deadline_exceeded` at the deadline,
    ///   `worker_lost_before_send` / `worker_lost` when its worker died, `worker_unavailable` while none
    ///   runs), or `CancellationError`
    ///   when the calling task was cancelled and the plugin stopped.
    public func call<Req: Codable & Sendable, Res: Codable & Sendable>(
        _ flow: Flow, account: AccountContext, request: Req, as resultType: Res.Type
    ) async throws -> Res {
        guard manifest.offers(flow) else {
            throw PluginCallError(
                .notSupported, message: "plugin \(manifest.id) does not declare flow \(flow.rawValue)")
        }
        let payload: Data
        do {
            payload = try PluginJSON.encode(PluginInvocation(account: account, request: request))
        } catch {
            throw PluginCallError(.encodeFailed, message: "the \(flow.rawValue) request could not be encoded")
        }
        let replyData: Data
        switch await instance.invoke(method: flow.rawValue, payload: payload) {
        case .success(let data): replyData = data
        case .failure(let error):
            if error.code == .cancelled && Task.isCancelled { throw CancellationError() }
            throw error
        }
        let reply: PluginReply<Res>
        do {
            reply = try PluginJSON.decode(PluginReply<Res>.self, from: replyData)
        } catch {
            throw PluginCallError(
                .badReply, message: "the \(flow.rawValue) reply of plugin \(manifest.id) does not decode")
        }
        if let error = reply.error {
            let code = PluginResultCode(parsing: error.code)
            if code == .cancelled && Task.isCancelled {
                throw CancellationError()
            }
            throw PluginCallError(code, message: error.message)
        }
        guard let result = reply.result else {
            throw PluginCallError(
                .badReply, message: "the \(flow.rawValue) reply of plugin \(manifest.id) is empty")
        }
        return result
    }
}
