import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

extension PluginsCommand {
    /// `switchyard plugins install FILE.so`: certifies a plugin, allows it in the policy, drops it into the
    /// plugins directory of a running deployment and reloads, undoing every step when one fails.
    struct Install: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Certify a plugin and install it into a running deployment.",
            discussion: """
                In order: `plugins check` (with --scenario if given), the plugin's id (and its SHA-256 in pinned \
                mode) added to the policy file, `POST /admin/v1/policy/reload`, the file copied into the plugins \
                directory, `POST /admin/v1/plugins/reload`, and a look at `GET /admin/v1/plugins` that the file \
                is served. When a step fails the file and the policy are put back as they were and reloaded. \
                --data-dir takes the URL, the operator token, the plugins directory and the policy from an \
                embedded default's data directory.
                """)

        @Argument(help: "The plugin .so file.")
        var file: String

        @Option(help: "An embedded default's data directory (its demo.json, plugins/ and policy.json).")
        var dataDir: String?

        @Option(help: "The server's base URL.")
        var url: String?

        @Option(help: "A file holding the operator token (or SWITCHYARD_OPERATOR_TOKEN).")
        var tokenFile: String?

        @Option(help: "The server's plugins directory.")
        var pluginsDir: String?

        @Option(help: "The server's policy file.")
        var policy: String?

        @Option(help: "A scenario file for the check.")
        var scenario: String?

        func run() async throws {
            let target = try resolveTarget()
            let report = try await PluginsCommand.certify(file: file, scenarioPath: scenario)
            guard report.passed, let id = report.plugin else {
                print(report.table)
                throw ValidationError("not installed: the plugin did not pass plugins check")
            }
            let installer = RunningInstall(target: target, file: file, id: id)
            do {
                let served = try await installer.install()
                print("installed \(id) (\(served.sha256)) into \(target.pluginsDirectory); the server serves it")
            } catch let error as InstallFailure {
                throw ValidationError("not installed: \(error.description)")
            }
        }

        private func resolveTarget() throws -> InstallTarget {
            if let dataDir {
                guard let data = FileManager.default.contents(atPath: dataDir + "/demo.json"),
                    let demo = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                    let server = demo["server_url"] as? String, let token = demo["operator_token"] as? String
                else {
                    throw ValidationError("\(dataDir)/demo.json is missing or has no server_url and operator_token")
                }
                return InstallTarget(
                    url: url ?? server, token: token, pluginsDirectory: pluginsDir ?? dataDir + "/plugins",
                    policy: policy ?? dataDir + "/policy.json")
            }
            guard let url, let pluginsDir, let policy else {
                throw ValidationError("give --data-dir, or --url, --plugins-dir and --policy (and --token-file)")
            }
            let token: String
            if let tokenFile {
                guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
                    throw ValidationError("cannot read --token-file \(tokenFile)")
                }
                token = text.trimmingCharacters(in: .whitespacesAndNewlines)
            } else if let value = ProcessInfo.processInfo.environment["SWITCHYARD_OPERATOR_TOKEN"], !value.isEmpty {
                token = value
            } else {
                throw ValidationError("give --token-file or SWITCHYARD_OPERATOR_TOKEN")
            }
            return InstallTarget(url: url, token: token, pluginsDirectory: pluginsDir, policy: policy)
        }
    }
}

/// Where a plugin is installed.
struct InstallTarget: Sendable {
    var url: String
    var token: String
    var pluginsDirectory: String
    var policy: String
}

/// Why an install stopped (everything it had changed was put back).
struct InstallFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The install's steps against a running server, each undone when a later one fails.
struct RunningInstall: Sendable {
    let target: InstallTarget
    let file: String
    let id: String

    /// What the server serves once installed.
    struct Served: Sendable {
        var sha256: String
    }

    func install() async throws -> Served {
        guard let plugin = FileManager.default.contents(atPath: file) else {
            throw InstallFailure("cannot read \(file)")
        }
        let digest = try PluginPin.digest(of: file)
        guard let original = FileManager.default.contents(atPath: target.policy) else {
            throw InstallFailure("cannot read the policy \(target.policy)")
        }
        let updated = try PolicyAllowance.allowing(id: id, sha256: digest, in: original)
        let destination = target.pluginsDirectory + "/" + (file as NSString).lastPathComponent
        let previous = FileManager.default.contents(atPath: destination)
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { _ = client.shutdown() }
        do {
            // The server answers and the token is an operator's, before anything changes.
            try await post(client, "/admin/v1/plugins/reload")
            try write(updated, to: target.policy)
            try await post(client, "/admin/v1/policy/reload")
            try write(plugin, to: destination)
            try await post(client, "/admin/v1/plugins/reload")
            let snapshot = try await get(client, "/admin/v1/plugins")
            let loaded = snapshot["loaded"] as? [[String: Any]] ?? []
            let name = (destination as NSString).lastPathComponent
            guard
                loaded.contains(where: {
                    $0["id"] as? String == id && $0["sha256"] as? String == digest
                        && ($0["file"] as? String).map { ($0 as NSString).lastPathComponent } == name
                })
            else {
                let refused = (snapshot["refused"] as? [[String: Any]] ?? []).first {
                    ($0["file"] as? String).map { ($0 as NSString).lastPathComponent } == name
                }
                let reason = refused.map { "\($0["code"] as? String ?? "refused"): \($0["reason"] as? String ?? "")" }
                throw InstallFailure("the server does not serve \(id) after the reload (\(reason ?? "not loaded"))")
            }
            return Served(sha256: digest)
        } catch {
            // Put everything back as it was and let the server read it again.
            if let previous {
                try? write(previous, to: destination)
            } else {
                try? FileManager.default.removeItem(atPath: destination)
            }
            try? write(original, to: target.policy)
            _ = try? await post(client, "/admin/v1/policy/reload")
            _ = try? await post(client, "/admin/v1/plugins/reload")
            if let failure = error as? InstallFailure { throw failure }
            throw InstallFailure("\(error)")
        }
    }

    /// Replaces `path` atomically (a temporary file renamed over it), keeping the mode of the file it replaces.
    private func write(_ data: Data, to path: String) throws {
        let temporary =
            (path as NSString).deletingLastPathComponent + "/." + (path as NSString).lastPathComponent + ".install"
        let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber
        let attributes: [FileAttributeKey: Any] = [.posixPermissions: mode ?? NSNumber(value: 0o644)]
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: attributes),
            rename(temporary, path) == 0
        else {
            try? FileManager.default.removeItem(atPath: temporary)
            throw InstallFailure("cannot write \(path)")
        }
    }

    @discardableResult
    private func post(_ client: HTTPClient, _ path: String) async throws -> [String: Any] {
        try await send(client, .POST, path)
    }

    private func get(_ client: HTTPClient, _ path: String) async throws -> [String: Any] {
        try await send(client, .GET, path)
    }

    private func send(_ client: HTTPClient, _ method: HTTPMethod, _ path: String) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: target.url.trimmingCharacters(in: ["/"]) + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(target.token)")
        if method == .POST {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: "{}"))
        }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .seconds(30))
        } catch {
            throw InstallFailure("\(method.rawValue) \(path) did not answer (\(target.url)): \(error)")
        }
        let body = try await response.body.collect(upTo: 4 << 20)
        let json = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
        guard response.status == .ok else {
            let error = json["error"] as? [String: Any]
            throw InstallFailure(
                "\(method.rawValue) \(path) answered \(response.status.code) \(error?["code"] as? String ?? "")"
                    + " \(error?["message"] as? String ?? "")")
        }
        return json
    }
}

/// The policy file with a plugin allowed: its id (and, in pinned mode, its digest) in `plugins.allowed`;
/// every other key kept as it was.
enum PolicyAllowance {
    static func allowing(id: String, sha256: String, in policy: Data) throws -> Data {
        guard var document = (try? JSONSerialization.jsonObject(with: policy)) as? [String: Any] else {
            throw InstallFailure("the policy file is not a JSON object")
        }
        var plugins = document["plugins"] as? [String: Any] ?? ["mode": "development"]
        let pinned = (plugins["mode"] as? String) == "pinned"
        if plugins["allowed"] as? String == "*" { return policy }
        var allowed = plugins["allowed"] as? [[String: Any]] ?? []
        if let index = allowed.firstIndex(where: { $0["id"] as? String == id }) {
            if pinned {
                var digests = allowed[index]["sha256"] as? [String] ?? []
                if !digests.contains(sha256) { digests.append(sha256) }
                allowed[index]["sha256"] = digests
            }
        } else {
            allowed.append(pinned ? ["id": id, "sha256": [sha256]] : ["id": id])
        }
        plugins["allowed"] = allowed
        document["plugins"] = plugins
        return try JSONSerialization.data(
            withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            + Data("\n".utf8)
    }
}
